"""The matchmaking tick, run by celery beat (``CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from matchmaking import services


@shared_task(ignore_result=True)
def tick() -> int:
    """Seat the groups the pools allow now; returns how many were seated.

    Two ticks at once (a slow one overtaken by the next) are safe: see
    ``services.match_tick``.
    """
    return len(services.match_tick(now=timezone.now()))
