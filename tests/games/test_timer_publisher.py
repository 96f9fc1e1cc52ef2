"""Timer tasks leave the process from a thread of their own (notify.TaskPublisher)."""

from __future__ import annotations

import threading

from kombu.exceptions import OperationalError

from games.services.notify import TaskPublisher
from games.tasks import advance_overdue


def test_timers_queued_meanwhile_go_out_together_and_one_failure_stops_none(
    monkeypatch,
):
    first_taken = threading.Event()
    release_first = threading.Event()
    published = []

    def apply_async(args, producer=None, **options):
        if args == (1, 1):
            first_taken.set()
            release_first.wait(5)
        if args == (1, 3):
            raise OperationalError("the broker went away")
        published.append((args, producer))

    monkeypatch.setattr(advance_overdue, "apply_async", apply_async)
    publisher = TaskPublisher()
    publisher.put(advance_overdue, (1, 1), {})
    assert first_taken.wait(5)
    # While the first is being published, three more wait in the queue.
    for version in (2, 3, 4):
        publisher.put(advance_overdue, (1, version), {})
    release_first.set()
    assert publisher.flush()

    assert [args for args, _ in published] == [(1, 1), (1, 2), (1, 4)]
    later = {producer for args, producer in published if args != (1, 1)}
    assert len(later) == 1 and None not in later
