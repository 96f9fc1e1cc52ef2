"""Beat saves a run before it sends the run's task (config.beat).

A leader killed between the two leaves its successor a run saved and not
sent: the job waits one period more. In celery's own order (send, then
save) the successor found the run unsaved and sent the task again at once,
twice within a period; the ten-minute drill of tests/live/test_beat.py
caught it once.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from config.beat import OneBeatScheduler
from config.celery import app

pytestmark = pytest.mark.django_db(transaction=True)


class SavedWhenSent(OneBeatScheduler):
    """Keeps, at the moment each task would go to the broker, the run the
    database holds for its job; sends nothing."""

    def __init__(self, *args, **kwargs):
        self.stored_when_sent: dict[str, object] = {}
        super().__init__(*args, **kwargs)

    def apply_async(self, entry, producer=None, advance=True, **kwargs):
        row = PeriodicTask.objects.get(name=entry.name)
        self.stored_when_sent[entry.name] = row.last_run_at


def test_a_run_is_in_the_database_before_its_task_is_sent():
    scheduler = SavedWhenSent(app=app)
    # Every job last run a day ago: all due at the first tick, which leads
    # (the lock is free) and reads the schedule from the database.
    long_ago = timezone.now() - timedelta(days=1)
    assert PeriodicTask.objects.update(last_run_at=long_ago) > 0
    try:
        for _ in range(3):
            scheduler.tick()
    finally:
        scheduler.close()

    assert scheduler.stored_when_sent, "no task was sent"
    for name, stored in scheduler.stored_when_sent.items():
        assert stored is not None and stored > long_ago, (name, stored)
