"""The worker of the deal reviews' queue (docs/review.md).

    python -m config.review_worker

A Celery worker of its own that takes only ``settings.REVIEW_QUEUE``, one
review at a time, at the lowest CPU priority (its pool inherits it): on a
busy node the web processes (live play, the practice bots' thinking) and
the other worker run first, and reviews wait. It is started as a module,
not as ``celery worker``, so that the priority is set before any of it runs.
"""

from __future__ import annotations

import os

# The lowest priority there is: reviews take only the CPU nothing else wants.
NICENESS = 19


def main() -> None:
    os.setpriority(os.PRIO_PROCESS, 0, NICENESS)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    import django
    from django.conf import settings

    django.setup()
    from config.celery import app

    app.worker_main(
        [
            "worker",
            "--loglevel",
            "INFO",
            "--queues",
            settings.REVIEW_QUEUE,
            "--concurrency",
            "1",
            "--hostname",
            "reviews@%h",
        ]
    )


if __name__ == "__main__":
    main()
