"""Reads of live play: what a seat, a spectator or the lobby is shown (the
games a player finished, for their page, are ``games.recent_games``).

A game as stored is shown through ``games.snapshots``, the one builder of
a snapshot, which a game's owner uses too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone

from coins.models import Account, Entry
from common.errors import NotFound
from games import fairness, rows, snapshots
from games.messages import Sync
from games.models import Game, GameEvent, Rematch, Seat, Table, deal_of
from joker.record import record_json
from ratings import selectors as ratings
from ratings.models import UnratedReason


def game_locked(game_id: int) -> Game:
    """The game with its table, its row locked for the caller's transaction:
    every writer of a game takes this lock first, so two go one after the
    other. ``NotFound`` when there is no such game."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    return game


def game_for_broadcast(game_id: int) -> tuple[Game, list[Seat]]:
    game = Game.objects.select_related("table").get(pk=game_id)
    return game, seats_of(game)


def seats_of(game: Game) -> list[Seat]:
    """The game's seats in seat order, with the names shown for them."""
    return rows.seats_of(game.table_id)


def seats_json(seats: list[Seat]) -> list[dict]:
    """The seats as a stored snapshot shows them: who is connected is known
    only to the game's owner (``games.live``), so people show as away."""
    return [
        snapshots.seat_json(
            seat.number, seat.display_name, seat.bot, seat.left, connected=False
        )
        for seat in seats
    ]


def snapshot(
    game: Game,
    seats: list[Seat],
    seat: int | None,
    *,
    state=None,
    shared: dict | None = None,
) -> dict:
    """Everything the recipient at ``seat`` (None: a spectator) may see now.

    ``state`` (the decoded game state) and ``shared`` (``shared_snapshot``)
    may be passed in when building the snapshots of every recipient at once.
    """
    if state is None:
        state = game.engine_state()
    if shared is None:
        shared = shared_snapshot(game, seats)
    return snapshots.for_audience(shared, state, seat)


def shared_snapshot(game: Game, seats: list[Seat]) -> dict:
    """The part of a snapshot that is the same for every recipient."""
    ending = None
    if game.status != Game.Status.PLAYING:
        ending = game_ending(game, seats)
    return snapshots.shared(
        game=game.pk,
        table=game.table.pk,
        version=game.version,
        status=game.status,
        deadline=game.deadline,
        turn_seconds=game.table.turn_seconds,
        seats=seats_json(seats),
        commitments=game.commitments,
        ending=ending,
    )


def game_ending(game: Game, seats: list[Seat] | None = None) -> dict:
    """What the snapshot of a game that is over adds: the deals revealed,
    the coins each seat won and what became of the ratings."""
    return {
        "reveal": reveal(game),
        "nets": game_coin_nets(game, seats),
        "rating": game_rating(game, seats),
    }


def game_rating(game: Game, seats: list[Seat] | None = None) -> dict | None:
    """What a ranked game that is over did to the ratings, as its result
    shows it: ``rated`` with each seat's change (``before``, ``after``,
    ``delta``; None for a bot's seat), or not, with the ``reason`` code
    (``ratings.models.UnratedReason``) of the rule that decided it. None for
    a casual table, a game called off (nothing was played) and a game ended
    before the reasons were kept."""
    if not game.table.ranked or game.status in (
        Game.Status.PLAYING,
        Game.Status.ABORTED,
    ):
        return None
    if game.status == Game.Status.ANNULLED:
        return {"rated": False, "reason": UnratedReason.ANNULLED.value, "changes": None}
    changes, reason = ratings.game_rating_outcome(game.pk)
    if reason:
        return {"rated": False, "reason": reason, "changes": None}
    if not changes:
        return None
    if seats is None:
        seats = seats_of(game)
    by_seat = []
    for seat in sorted(seats, key=lambda seat: seat.number):
        change = changes.get(seat.user_id) if seat.user_id else None
        by_seat.append(
            None
            if change is None
            else {"before": change.before, "after": change.after, "delta": change.delta}
        )
    return {"rated": True, "reason": "", "changes": by_seat}


def reveal(game: Game) -> list[dict]:
    """After the game: every deal's cards, salt and hashed text, to check the
    commitments. Never called while the game is being played."""
    assert game.status != Game.Status.PLAYING
    return [
        {
            "deal": record.index,
            "commitment": record.commitment,
            "preimage": fairness.preimage(record.index, deal_of(record), record.salt),
        }
        for record in game.deal_records.order_by("index")
    ]


def visible_to(user) -> Q:
    """The games ``user`` (anonymous: None or AnonymousUser) may see, their
    replays, records, reviews and what is counted from them: public
    tables', and private ones' to their players."""
    if user is not None and user.is_authenticated:
        mine = Seat.objects.filter(user=user).values("table_id")
        return Q(table__is_private=False) | Q(table_id__in=mine)
    return Q(table__is_private=False)


def game_record(game: Game) -> dict:
    """The record (RECORD.md) of a game that is over, with each deal's
    commitment and salt: whoever holds it can check that no deal was changed
    once play began (docs/engine.md)."""
    record = record_json(game.table.rules, game.first_dealer, game_history(game))
    record["fairness"] = fairness_record(game)
    return record


def fairness_record(game: Game) -> list[dict]:
    """After the game: every deal's commitment and salt, as the game record
    carries them (``games.fairness.record_failures`` checks them against the
    record's cards). Never called while the game is being played."""
    assert game.status != Game.Status.PLAYING
    return [
        {"deal": index, "commitment": commitment, "salt": salt}
        for index, commitment, salt in game.deal_records.order_by("index").values_list(
            "index", "commitment", "salt"
        )
    ]


def coin_nets(
    games: Iterable[Game], seats: dict[int, list[Seat]] | None = None
) -> dict[int, list[int]]:
    """The Domino Coin each player won (positive) or lost (negative), by seat,
    for every one of ``games`` that finished with a stake, by game id.

    Read from the ledger, so it is what really moved: everything the game's
    escrow paid each player's wallet minus everything the wallet put into it
    (for a finished game, the payout minus the stake). One query for all the
    games. ``seats`` maps a game id to its seats; otherwise they are
    ``game.table.seats.all()`` (prefetch them when reading many games)."""
    games = [
        game
        for game in games
        if game.status == Game.Status.FINISHED and game.table.stake
    ]
    if not games:
        return {}
    by_ref = {game.escrow_ref: game.pk for game in games}
    escrow, wallet = Account.Kind.TABLE_ESCROW, Account.Kind.WALLET
    moves = Entry.objects.filter(ref__in=by_ref).filter(
        Q(debit__kind=escrow, credit__kind=wallet)
        | Q(debit__kind=wallet, credit__kind=escrow)
    )
    net: dict[int, dict[int | None, int]] = {game_id: {} for game_id in by_ref.values()}
    for ref, payer, payee, amount in moves.values_list(
        "ref", "debit__owner_id", "credit__owner_id", "amount"
    ):
        of_game = net[by_ref[ref]]
        if payee is not None:
            of_game[payee] = of_game.get(payee, 0) + amount
        else:
            of_game[payer] = of_game.get(payer, 0) - amount
    out = {}
    for game in games:
        if seats is not None and game.pk in seats:
            seats_of_game: Iterable[Seat] = seats[game.pk]
        else:
            seats_of_game = game.table.seats.all()
        ordered = sorted(seats_of_game, key=lambda seat: seat.number)
        out[game.pk] = [net[game.pk].get(seat.user_id, 0) for seat in ordered]
    return out


def game_coin_nets(game: Game, seats: list[Seat] | None = None) -> list[int] | None:
    """``coin_nets`` of one game; None unless it finished with a stake."""
    return coin_nets([game], None if seats is None else {game.pk: seats}).get(game.pk)


def events_since(game: Game, version: int) -> list[dict]:
    """The public events of every step after ``version``."""
    rows = GameEvent.objects.filter(game=game, version__gt=version).order_by("version")
    steps = []
    for row in rows:
        step = {"version": row.version, "events": row.public}
        # As games.live.game.public_step writes it: a timeout move says so.
        if row.cause == GameEvent.Cause.TIMEOUT:
            step["cause"] = row.cause
        steps.append(step)
    return steps


def game_history(game: Game) -> list:
    """The game as the engine's record history: [(Deal, [actions])]."""
    from joker.actions import action_from_json

    deals = {record.index: deal_of(record) for record in game.deal_records.all()}
    history: list = []
    for event in game.events.order_by("version"):
        if event.kind == GameEvent.Kind.DEAL:
            assert event.action is not None  # a deal's event names its deal
            history.append((deals[event.action["deal"]], []))
        elif event.kind == GameEvent.Kind.ACTION:
            history[-1][1].append(action_from_json(event.action))
    return history


def open_tables(user=None):
    """Public tables waiting for players, newest first, for the lobby."""
    return (
        Table.objects.filter(status=Table.Status.OPEN, is_private=False)
        .prefetch_related("seats__user")
        .order_by("-created_at")
    )


class Access:
    """What a user may do at a table: their seat, and whether they may
    watch (a private table admits only its seated players)."""

    def __init__(self, table_id: int, seat: int | None, may_watch: bool):
        self.table_id = table_id
        self.seat = seat
        self.may_watch = may_watch


def table_access(table: Table, user) -> Access:
    seat = Seat.objects.filter(table_id=table.pk, user=user).first()
    if seat is not None:
        return Access(table.pk, seat.number, True)
    return Access(table.pk, None, not table.is_private)


def game_access(game_id: int, user) -> Access | None:
    """The user's access to the game's table; None: no such game."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    return None if game is None else table_access(game.table, user)


def waiting_table_access(table_id: int, user) -> Access | None:
    """The user's access to a table, for its waiting page; None: no such
    table."""
    table = Table.objects.filter(pk=table_id).first()
    return None if table is None else table_access(table, user)


# Resync: events after the client's version when there are few, else only
# the snapshot (the client redraws from it either way).
MAX_RESYNC_STEPS = 200


def stored_sync(game_id: int, seat: int | None, since: int | None) -> Sync:
    """The ``sync`` of a game nobody owns (over), read from the database."""
    game, seats = game_for_broadcast(game_id)
    events: list = []
    if since is not None and 0 <= game.version - since <= MAX_RESYNC_STEPS:
        events = events_since(game, since)
    # The last trick is held by a game's owner only.
    return Sync(since, events, None, snapshot(game, seats, seat))


def rematch_message(game_id: int, *, now=None) -> dict:
    """Where the game's rematch offer stands, as the table socket's
    ``rematch`` message and the API give it (docs/protocol.md, "Rematch"):
    ``state`` is "none" (no offer yet), "open", "made" or "lapsed" (an open
    offer past its time is lapsed, reason "expired")."""
    now = now or timezone.now()
    message = {
        "type": "rematch",
        "game": game_id,
        "state": "none",
        "agreed": [],
        "waiting": [],
        "expires": None,
        "reason": "",
        "seat": None,
        "table": None,
        "url": None,
    }
    rematch = Rematch.objects.filter(game_id=game_id).first()
    if rematch is None:
        return message
    people = list(
        Seat.objects.filter(table__game__pk=game_id, user__isnull=False)
        .order_by("number")
        .values_list("number", flat=True)
    )
    state, reason = rematch.state, rematch.reason
    if state == Rematch.State.OPEN and rematch.expires_at <= now:
        state, reason = Rematch.State.LAPSED, "expired"
    message.update(
        state=state,
        agreed=list(rematch.agreed),
        waiting=[n for n in people if n not in rematch.agreed],
        expires=rematch.expires_at.isoformat(),
        reason=reason,
        seat=rematch.reason_seat if reason != "expired" else None,
    )
    if state == Rematch.State.MADE:
        message.update(
            table=rematch.table_id,
            url=reverse("games:table", args=[rematch.table_id]),
        )
    return message


@dataclass(frozen=True)
class BotLoad:
    """The practice bots' moves since a time: how many, and how many were
    given less than their level's thinking budget (the bot processes busy)."""

    since: datetime
    moves: int
    cut_short: int

    @property
    def percent_cut_short(self) -> int:
        return round(100 * self.cut_short / self.moves) if self.moves else 0


def bot_load(since: datetime) -> BotLoad:
    """The bot moves made since ``since``, on every node (read through the
    index of bot moves by time, so a recent window stays cheap)."""
    counts = GameEvent.objects.filter(
        budget_ms__isnull=False, created_at__gte=since
    ).aggregate(moves=Count("pk"), cut_short=Count("pk", filter=Q(cut_short=True)))
    return BotLoad(since, counts["moves"], counts["cut_short"])
