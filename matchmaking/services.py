"""Every write of quick play: joining and leaving pools, and matching.

Pages, the API, the WebSocket consumer and the Celery tick call these; none
of them writes the models directly. Time is passed in (``now``); the tick is
``match_tick``, run by celery beat every two seconds (``tasks.tick``).

Locking: a group is seated in one transaction that first locks the pool
entries of its players with ``SELECT ... FOR UPDATE SKIP LOCKED`` and goes
on only if it got every one of them. Two ticks at once therefore never seat
one player twice: the second finds the rows locked (and skips the group) or
gone (the first tick deleted them when it seated the group).
"""

from __future__ import annotations

import logging
import secrets
from datetime import UTC, datetime, timedelta
from functools import partial
from itertools import groupby

from django.db import IntegrityError, transaction
from django.db.models import Case, Count, DateTimeField, Value, When
from django.db.models.functions import Greatest
from django.urls import reverse
from django.utils import timezone

from accounts.locking import lock_players
from common.errors import ApplicationError, NotAllowed
from games.models import Table
from games.services import seat_take, table_create, table_create_seated
from games.stakes import STAKE_CHOICES, check_may_sit
from matchmaking import notify, pings
from matchmaking.errors import AlreadyWaiting, NotWaiting
from matchmaking.grouping import (
    BOT_WAIT_SECONDS,
    Waiting,
    bot_group,
    bot_level,
    form_groups,
    window,
)
from matchmaking.models import Match, PoolEntry
from ratings import elo
from ratings.categories import CATEGORIES, preset
from ratings.models import Rating

logger = logging.getLogger(__name__)

# A player whose page (or API client) has not been heard from for this long
# leaves the pool: nobody is seated at a table they are not looking at.
AWAY_SECONDS = 30
# The move timer of the tables quick play opens.
TURN_SECONDS = 30
# The tables whose empty seats bots fill after the wait: 4 players.
BOT_TABLE_SIZE = 4

_random = secrets.SystemRandom()


def pool_join(
    *,
    user,
    category: str,
    stake: int,
    bots: bool = True,
    bots_rated: bool = False,
    now: datetime | None = None,
):
    """Put ``user`` in the pool of ``category`` and ``stake`` (Domino Coin).

    ``bots``: in a 4-player category without a stake, a player who has
    waited ``BOT_WAIT_SECONDS`` is seated at once with practice bots in the
    seats nobody fits (``match_tick``); ``bots_rated``: such a game counts
    for the rating (a bot as an opponent of its level's fixed rating).

    Refused (``ApplicationError``, nothing changes) for an unknown category or
    stake, a player already in a pool (``AlreadyWaiting``), and anyone who
    could not take a seat at the ranked table the pool would give them
    (``NotAllowed``): seated at another live ranked table, fewer coins than
    the stake, or a high stake without an established rating.
    """
    now = now or timezone.now()
    if category not in CATEGORIES:
        raise ApplicationError(f"there is no category {category!r}", code="bad_options")
    if type(stake) is not int or stake not in STAKE_CHOICES:
        raise ApplicationError(f"the stake cannot be {stake!r}", code="bad_options")
    if type(bots) is not bool or type(bots_rated) is not bool:
        raise ApplicationError(
            "bots and bots_rated are true or false", code="bad_options"
        )
    with transaction.atomic():
        if PoolEntry.objects.filter(user=user).exists():
            raise AlreadyWaiting("you are already waiting for a game")
        check_may_sit(_table_of(category, stake), user)
        try:
            # A savepoint: the same player joining twice at once loses here.
            with transaction.atomic():
                entry = PoolEntry.objects.create(
                    user=user,
                    category=category,
                    stake=stake,
                    rating=_rating(user, category),
                    joined_at=now,
                    seen_at=now,
                    bots=bots,
                    bots_rated=bots_rated,
                )
        except IntegrityError as error:
            raise AlreadyWaiting("you are already waiting for a game") from error
        transaction.on_commit(partial(_joined, entry), robust=True)
    return entry


def _joined(entry: PoolEntry) -> None:
    """A join committed: the pool's size for the sockets' pings, and the
    player's quick-play sockets told that they wait (``notify.joined``)."""
    _publish_size(entry.category, entry.stake)
    notify.joined(
        entry.user_id,
        {
            "category": entry.category,
            "stake": entry.stake,
            "rating": entry.rating,
            "joined_at": entry.joined_at.timestamp(),
            "bots": entry.bots,
            "bots_rated": entry.bots_rated,
        },
    )


def _publish_size(category: str, stake: int) -> None:
    """The size of one pool now, for the sockets' pings (``pings``): after
    a join or a cancel, so that the pages need not wait for the tick, which
    writes every pool's size again (and so mends a size two joins at once
    may have written out of order)."""
    players = PoolEntry.objects.filter(category=category, stake=stake).count()
    pings.publish_size(category, stake, players)


def pool_cancel(*, user) -> None:
    """Take ``user`` out of their pool; ``NotWaiting`` if they are in none
    (perhaps because a tick has just seated them)."""
    with transaction.atomic():
        entry = PoolEntry.objects.select_for_update().filter(user=user).first()
        if entry is None:
            raise NotWaiting("you are not waiting for a game")
        entry.delete()
        # The player's other quick-play pages leave the pool too (their
        # pings answer from what they read when they opened).
        transaction.on_commit(
            partial(notify.removed, [user.pk], "cancelled"), robust=True
        )
        transaction.on_commit(
            partial(_publish_size, entry.category, entry.stake), robust=True
        )


def pool_touch(*, user, now: datetime | None = None) -> None:
    """Note that the waiting player is still there (see ``AWAY_SECONDS``)."""
    now = now or timezone.now()
    PoolEntry.objects.filter(user=user, seen_at__lt=now).update(seen_at=now)


def match_tick(*, now: datetime | None = None) -> list[Match]:
    """Seat every group that the pools allow now; returns the matches made.

    First the players not heard from for ``AWAY_SECONDS`` leave. Then each
    pool (category and stake) is grouped by ``grouping.form_groups``, oldest
    first, with every player's window widened by the time waited, and each
    group is seated in its own transaction (``_seat_group``). Safe to run
    twice at once (see the module's docstring).
    """
    now = now or timezone.now()
    _take_pings(now)
    _remove_away(now)
    matches = []
    entries = PoolEntry.objects.order_by("category", "stake", "joined_at", "id")
    fields = ("id", "category", "stake", "rating", "joined_at", "bots", "bots_rated")
    for (category, stake), pool in groupby(
        entries.only(*fields), key=lambda entry: (entry.category, entry.stake)
    ):
        members = list(pool)
        waiting = {entry.pk: _waiting(entry, now) for entry in members}
        size = CATEGORIES[category].players
        groups = form_groups(list(waiting.values()), size)
        for group in groups:
            match = _seat_group(category, stake, [w.key for w in group], now)
            if match is not None:
                matches.append(match)
        if size == BOT_TABLE_SIZE and stake == 0:
            grouped = {w.key for group in groups for w in group}
            free = [e for e in members if e.pk not in grouped and e.bots]
            matches += _seat_with_bots(category, free, waiting, size, now)
    _publish_sizes()
    return matches


def _waiting(entry: PoolEntry, now) -> Waiting:
    waited = (now - entry.joined_at).total_seconds()
    return Waiting(key=entry.pk, rating=entry.rating, window=window(waited))


def _seat_with_bots(
    category: str, free: list[PoolEntry], waiting: dict, size: int, now
) -> list[Match]:
    """Seat each player of ``free`` (in join order, left without a group of
    people) whose wait is over, with whoever else of ``free`` fits them and
    made the same choice of a rated game, and bots in the other seats."""
    matches: list[Match] = []
    while True:
        due = [e for e in free if _waited(e, now) >= BOT_WAIT_SECONDS]
        if not due:
            return matches
        anchor = due[0]
        others = [
            waiting[e.pk]
            for e in free
            if e.pk != anchor.pk and e.bots_rated == anchor.bots_rated
        ]
        group = bot_group(waiting[anchor.pk], others, size - 1)
        keys = [w.key for w in group]
        match = _seat_group(
            category, 0, keys, now, bots_rated=anchor.bots_rated, size=size
        )
        if match is not None:
            matches.append(match)
        # Seated, refused or taken by another tick: not tried again here.
        free = [e for e in free if e.pk not in keys]


def _waited(entry: PoolEntry, now) -> float:
    return (now - entry.joined_at).total_seconds()


def _seat_group(
    category: str,
    stake: int,
    keys: list[int],
    now,
    *,
    bots_rated: bool | None = None,
    size: int = 0,
) -> Match | None:
    """Seat the players of the entries ``keys`` at a new ranked table (with
    bots in its other ``size`` seats when ``bots_rated`` is not None: rated
    or not), or do nothing if any of them is no longer to be had."""
    try:
        with transaction.atomic():
            entries = list(
                PoolEntry.objects.select_for_update(skip_locked=True, of=("self",))
                .filter(pk__in=keys)
                .select_related("user")
                .order_by("joined_at", "id")
            )
            if len(entries) < len(keys):
                # Another tick is seating some of them, or they left.
                return None
            refused = _refused(entries, category, stake)
            if refused:
                # The others stay, keeping their place, for the next tick.
                PoolEntry.objects.filter(pk__in=[e.pk for e in refused]).delete()
                user_ids = [entry.user_id for entry in refused]
                transaction.on_commit(
                    partial(notify.removed, user_ids, "refused"), robust=True
                )
                return None
            if bots_rated is not None:
                return _seat_with_bots_now(entries, category, size, bots_rated, now)
            return _seat(entries, category, stake, now)
    except ApplicationError as error:
        # Something changed between the check and the seat (a wallet spent
        # by another request); everything is rolled back, the next tick
        # looks again.
        logger.warning("quick play could not seat entries %s: %s", keys, error)
        return None


def _refused(entries: list[PoolEntry], category: str, stake: int) -> list[PoolEntry]:
    """The entries whose players may no longer sit at the table (they sat
    down at another ranked table, spent their coins, or were banned since
    joining)."""
    table = _table_of(category, stake)
    # All of them at once, lowest id first: each check locks its player.
    lock_players(*(entry.user_id for entry in entries))
    refused = []
    for entry in entries:
        if not entry.user.is_active:
            refused.append(entry)
            continue
        try:
            check_may_sit(table, entry.user)
        except NotAllowed:
            refused.append(entry)
    return refused


def _seat(entries: list[PoolEntry], category: str, stake: int, now) -> Match:
    profile, options = preset(category)
    users = [entry.user for entry in entries]
    table = table_create(
        user=users[0],
        profile=profile,
        options=options,
        turn_seconds=TURN_SECONDS,
        ranked=True,
        stake=stake,
        take_seat=False,
    )
    # The last seat taken starts the game and puts every stake in escrow.
    numbers = _random.sample(range(len(users)), len(users))
    for user, number in zip(users, numbers, strict=True):
        seat_take(table_id=table.pk, user=user, number=number)
    match = Match.objects.create(
        category=category,
        stake=stake,
        table=table,
        created_at=now,
        detail=[
            {
                "user": entry.user_id,
                "rating": entry.rating,
                "waited": round((now - entry.joined_at).total_seconds(), 1),
            }
            for entry in entries
        ],
    )
    return _matched(match, entries)


def _seat_with_bots_now(
    entries: list[PoolEntry], category: str, size: int, rated: bool, now
) -> Match:
    """Seat the players in random seats of a new table of ``category``
    without a stake, practice bots of the level nearest their ratings in the
    others, and start its game: ranked and rated with bots if ``rated``,
    casual otherwise."""
    profile, options = preset(category)
    users = [entry.user for entry in entries]
    players: list = [None] * size
    numbers = _random.sample(range(size), len(users))
    for user, number in zip(users, numbers, strict=True):
        players[number] = user
    level = bot_level([entry.rating for entry in entries])
    table = table_create_seated(
        profile=profile,
        options=options,
        turn_seconds=TURN_SECONDS,
        players=players,
        created_by=users[0],
        ranked=rated,
        rated_with_bots=rated,
        managed=False,
        bot=level,
        now=now,
    )
    match = Match.objects.create(
        category=category,
        stake=0,
        table=table,
        created_at=now,
        detail=[
            *(
                {
                    "user": entry.user_id,
                    "rating": entry.rating,
                    "waited": round(_waited(entry, now), 1),
                }
                for entry in entries
            ),
            *({"bot": level} for _ in range(size - len(users))),
        ],
    )
    return _matched(match, entries)


def _matched(match: Match, entries: list[PoolEntry]) -> Match:
    """The pool entries of ``match``'s players go; they hear of their table
    once it is committed."""
    users = [entry.user for entry in entries]
    match.players.set(users)
    PoolEntry.objects.filter(pk__in=[entry.pk for entry in entries]).delete()
    table_id = match.table_id
    url = reverse("games:table", args=[table_id])
    user_ids = [user.pk for user in users]
    transaction.on_commit(partial(notify.matched, user_ids, table_id, url), robust=True)
    return match


def _take_pings(now) -> None:
    """The quick-play sockets' pings of the last ``AWAY_SECONDS``, kept in
    Redis (``pings``), become their players' ``seen_at``, in one statement."""
    start = now - timedelta(seconds=AWAY_SECONDS)
    heard = pings.heard_between(start.timestamp(), now.timestamp())
    if not heard:
        return
    seen = Case(
        *(
            When(user_id=user_id, then=Value(datetime.fromtimestamp(at, tz=UTC)))
            for user_id, at in heard.items()
        ),
        output_field=DateTimeField(),
    )
    PoolEntry.objects.filter(user_id__in=heard).update(
        seen_at=Greatest("seen_at", seen)
    )


def _publish_sizes() -> None:
    """How many wait in each pool now, for the sockets' pings (``pings``)."""
    sizes = (
        PoolEntry.objects.order_by()
        .values_list("category", "stake")
        .annotate(players=Count("id"))
    )
    pings.publish_sizes({(category, stake): n for category, stake, n in sizes})


def _remove_away(now) -> None:
    """Take out of the pools everyone not heard from for ``AWAY_SECONDS``."""
    cutoff = now - timedelta(seconds=AWAY_SECONDS)
    with transaction.atomic():
        away = list(
            PoolEntry.objects.select_for_update(skip_locked=True)
            .filter(seen_at__lt=cutoff)
            .values_list("pk", "user_id")
        )
        if not away:
            return
        PoolEntry.objects.filter(pk__in=[pk for pk, _ in away]).delete()
        user_ids = [user_id for _, user_id in away]
        transaction.on_commit(partial(notify.removed, user_ids, "away"), robust=True)


def _table_of(category: str, stake: int) -> Table:
    """The ranked table (unsaved) that the pool of ``category`` and ``stake``
    seats its players at, for asking who may sit there."""
    profile, options = preset(category)
    return Table(profile=profile, options=options, ranked=True, stake=stake)


def _rating(user, category: str) -> int:
    rating = (
        Rating.objects.filter(user=user, category=category)
        .values_list("rating", flat=True)
        .first()
    )
    return elo.START if rating is None else rating
