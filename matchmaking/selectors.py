"""Reading the pools: a player's own status and every pool's size."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime

from django.db.models import Count, Min
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from games.stakes import STAKE_CHOICES
from matchmaking.grouping import BOT_WAIT_SECONDS, window
from matchmaking.models import Match, PoolEntry
from ratings.categories import CATEGORIES


@dataclass(frozen=True, slots=True)
class PoolStatus:
    """Where a player stands: waiting in a pool, or not (and then perhaps
    with a table that quick play seated them at, still in play)."""

    waiting: bool
    category: str | None = None
    stake: int | None = None
    rating: int | None = None
    joined_at: datetime | None = None
    waited: int = 0
    window: int | None = None
    players: int = 0
    table: int | None = None
    url: str | None = None
    # Seconds until practice bots fill the table (0: at the next tick);
    # None when they never will (a 2-player category, a stake, or bots
    # turned down).
    bots_in: int | None = None
    bots_rated: bool = False


@dataclass(frozen=True, slots=True)
class PoolSummary:
    category: str
    stake: int
    players: int
    oldest_wait: int | None


def pool_status(user, *, now: datetime | None = None) -> PoolStatus:
    """The player's place in their pool: the seconds waited, the rating
    window now, and how many players wait in that pool (them included)."""
    now = now or timezone.now()
    entry = PoolEntry.objects.filter(user=user).first()
    if entry is None:
        table_id = current_table(user)
        if table_id is None:
            return PoolStatus(waiting=False)
        url = reverse("games:table", args=[table_id])
        return PoolStatus(waiting=False, table=table_id, url=url)
    players = PoolEntry.objects.filter(
        category=entry.category, stake=entry.stake
    ).count()
    return status_at(entry_status(entry, players), now)


def entry_status(entry: PoolEntry, players: int) -> PoolStatus:
    """The status of a player waiting as ``entry`` says (saved or not), with
    ``players`` in the pool, as it was when they joined."""
    with_bots = (
        entry.bots and entry.stake == 0 and CATEGORIES[entry.category].players == 4
    )
    return PoolStatus(
        waiting=True,
        bots_in=BOT_WAIT_SECONDS if with_bots else None,
        bots_rated=entry.bots_rated,
        category=entry.category,
        stake=entry.stake,
        rating=entry.rating,
        joined_at=entry.joined_at,
        players=players,
    )


def status_at(
    status: PoolStatus, now: datetime, *, players: int | None = None
) -> PoolStatus:
    """``status`` as it stands at ``now``: the seconds waited, the rating
    window and the bots' countdown, which only the time changes, and the
    pool's ``players`` if given. Quick play's socket answers its pings so,
    from the status it read when it opened, without the database."""
    if not status.waiting or status.joined_at is None:
        return status  # a waiting status always has joined
    waited = max(0.0, (now - status.joined_at).total_seconds())
    bots_in = None
    if status.bots_in is not None:
        bots_in = max(0, math.ceil(BOT_WAIT_SECONDS - waited))
    return replace(
        status,
        waited=int(waited),
        window=window(waited),
        bots_in=bots_in,
        players=status.players if players is None else players,
    )


def current_table(user) -> int | None:
    """The table of the player's latest match, while its game is on and the
    player still plays it."""
    return (
        Match.objects.filter(
            players=user,
            table__status__in=[Table.Status.OPEN, Table.Status.PLAYING],
            table__seats__user=user,
            table__seats__left=False,
        )
        .order_by("-created_at", "-id")
        .values_list("table_id", flat=True)
        .first()
    )


def pools(*, now: datetime | None = None) -> list[PoolSummary]:
    """Every pool, by category and stake: players waiting and the longest
    wait in seconds (None when nobody waits)."""
    now = now or timezone.now()
    rows = {
        (row["category"], row["stake"]): row
        for row in PoolEntry.objects.order_by()
        .values("category", "stake")
        .annotate(players=Count("id"), oldest=Min("joined_at"))
    }
    summaries = []
    for category in CATEGORIES:
        for stake in STAKE_CHOICES:
            row = rows.get((category, stake))
            if row is None:
                summaries.append(PoolSummary(category, stake, 0, None))
                continue
            oldest = max(0, int((now - row["oldest"]).total_seconds()))
            summaries.append(PoolSummary(category, stake, row["players"], oldest))
    return summaries
