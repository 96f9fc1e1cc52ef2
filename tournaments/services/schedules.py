"""Recurring tournaments: each schedule creates its tournaments ahead of
their start, once per start (a unique constraint settles any race)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.models import Schedule, Tournament, TournamentSettings

# The fields a schedule hands down to each tournament it creates.
SETTINGS_FIELDS = [
    f.name
    for f in TournamentSettings._meta.get_fields()
    if f.concrete and f.name != "id"
]


def schedule_next_starts(schedule: Schedule, now, horizon: timedelta) -> list[datetime]:
    """The schedule's start times from ``now`` up to ``now + horizon``."""
    starts: list[datetime] = []
    day = now.astimezone(UTC).date()
    end = now + horizon
    while True:
        start = datetime.combine(day, schedule.time_of_day, tzinfo=UTC)
        if start > end:
            return starts
        if start > now and str(start.weekday()) in schedule.weekdays:
            starts.append(start)
        day += timedelta(days=1)


def tournament_create_scheduled(*, now=None) -> list[Tournament]:
    """Create the tournaments whose registration should be open by now."""
    now = now or timezone.now()
    created = []
    for schedule in Schedule.objects.filter(active=True):
        horizon = timedelta(hours=schedule.create_ahead_hours)
        for start in schedule_next_starts(schedule, now, horizon):
            if Tournament.objects.filter(schedule=schedule, starts_at=start).exists():
                continue
            fields = {name: getattr(schedule, name) for name in SETTINGS_FIELDS}
            try:
                with transaction.atomic():
                    created.append(
                        Tournament.objects.create(
                            **fields, schedule=schedule, starts_at=start
                        )
                    )
            except IntegrityError:
                continue  # another process created it a moment ago
    return created
