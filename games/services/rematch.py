"""Rematch: the people of a finished game play it again at a new table.

Each person of the game agrees (bots agree at once); when the last one has,
a new table is opened with the game's options (profile, rules, timer,
ranked, stake and its settlement, privacy, bots and their levels) and the
same people and bots in the same seats, and its game starts. The offer
(``Rematch``, one row per game) lapses when a player declines or leaves the
table page, when someone may no longer take their seat, or after
``REMATCH_SECONDS``; a lapsed offer can be made again, a made one cannot.

The table sockets and the API call these (never the game's owner: the game
is over). Every change is told to the game's sockets after its commit
(``notify.rematch_changed``).

Locking contract: every service here locks the finished game's row first
(``select_for_update``) and holds it to its commit, so the clicks of two
players go one after the other: of two last clicks at the same moment, the
second finds the first's agreement and the table made, and exactly one
table is opened. Opening it then locks every player's row, lowest id
first (``accounts.locking.lock_players``), before any seat is checked: two
rematches of the same players with the seats the other way round, made at
once, then wait for each other instead of deadlocking.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone

from accounts.locking import lock_players
from common.errors import NotAllowed
from games import stakes
from games.models import Game, Rematch, Seat, Table
from games.selectors import game_locked

from . import notify
from .tables import _start_if_full

# How long an offer stays open for the others to agree.
REMATCH_SECONDS = 60


class GameNotFinished(NotAllowed):
    code = "game_not_finished"


class NotAPlayer(NotAllowed):
    code = "not_a_player"


class TournamentGame(NotAllowed):
    code = "tournament_game"


class AlreadyAgreed(NotAllowed):
    code = "rematch_agreed"


class RematchMade(NotAllowed):
    code = "rematch_made"


class NoOffer(NotAllowed):
    code = "no_offer"


class RematchRefused(NotAllowed):
    """Somebody may not take their seat at the new table: nothing was made
    and the offer lapsed. ``reason`` is the seat's own refusal code
    (``few_coins``, ``ranked_elsewhere``, ``rating_needed``, ``banned``)."""

    code = "rematch_refused"

    def __init__(self, message: str, *, reason: str, seat: int | None):
        super().__init__(message)
        self.reason, self.seat = reason, seat


class _SeatRefused(Exception):
    def __init__(self, seat: int | None, error: NotAllowed):
        super().__init__(str(error))
        self.seat, self.error = seat, error


def rematch_agree(*, game_id: int, user, now: datetime | None = None) -> Rematch:
    """``user`` agrees to play game ``game_id`` again (making the offer if
    none is open). When every person of the game has agreed, the new table
    is opened and its game started, in this transaction.

    Refused, changing nothing: a game not finished (``GameNotFinished``), a
    tournament's game (``TournamentGame``), a user without a seat at it
    (``NotAPlayer``), an agreement given already (``AlreadyAgreed``), an
    offer already made into a table (``RematchMade``). When somebody may not
    take their seat (a seat at another live ranked table, too few coins for
    the stake, a rating a high stake needs, a ban), no table is left behind,
    the offer lapses (that is committed) and ``RematchRefused`` is raised.
    """
    now = now or timezone.now()
    refusal = None
    with transaction.atomic():
        game, seats = _locked_game(game_id)
        seat = _seat_of(seats, user)
        rematch = Rematch.objects.filter(game=game).first()
        if rematch is not None and rematch.state == Rematch.State.MADE:
            raise RematchMade("the rematch was made already: its table is open")
        if rematch is None or not _is_open(rematch, now):
            rematch = rematch or Rematch(game=game)
            rematch.state, rematch.agreed = Rematch.State.OPEN, []
            rematch.reason, rematch.reason_seat = "", None
            rematch.expires_at = now + timedelta(seconds=REMATCH_SECONDS)
        elif seat.number in rematch.agreed:
            raise AlreadyAgreed("you have agreed to the rematch already")
        rematch.agreed = sorted([*rematch.agreed, seat.number])
        rematch.updated_at = now
        people = {s.number for s in seats if s.user_id is not None}
        if people <= set(rematch.agreed):
            try:
                # A savepoint: a refused seat takes the half-made table back.
                with transaction.atomic():
                    rematch.table = _table_again(game.table, seats, now)
                    rematch.state = Rematch.State.MADE
            except _SeatRefused as refused:
                rematch.state = Rematch.State.LAPSED
                rematch.reason = refused.error.code
                rematch.reason_seat = refused.seat
                refusal = RematchRefused(
                    f"the rematch cannot be made: {refused}",
                    reason=refused.error.code,
                    seat=refused.seat,
                )
        rematch.save()
        transaction.on_commit(partial(notify.rematch_changed, game.pk), robust=True)
    if refusal is not None:
        raise refusal
    return rematch


def rematch_decline(
    *, game_id: int, user, reason: str = "declined", now: datetime | None = None
) -> Rematch:
    """``user`` says no to the open offer (``reason`` "declined"), or has
    left the table page ("left"): the offer lapses. ``NoOffer`` when no offer
    is open; the other refusals as ``rematch_agree``."""
    now = now or timezone.now()
    with transaction.atomic():
        game, seats = _locked_game(game_id)
        seat = _seat_of(seats, user)
        rematch = Rematch.objects.filter(game=game).first()
        if rematch is None or not _is_open(rematch, now):
            raise NoOffer("there is no open rematch offer")
        rematch.state = Rematch.State.LAPSED
        rematch.reason, rematch.reason_seat = reason, seat.number
        rematch.updated_at = now
        rematch.save()
        transaction.on_commit(partial(notify.rematch_changed, game.pk), robust=True)
    return rematch


def rematch_left(*, game_id: int, user, now: datetime | None = None) -> bool:
    """A player's table page closed: their open offer lapses. Whether one
    did; nothing happens (and nothing is locked) when none is open."""
    now = now or timezone.now()
    if not Rematch.objects.filter(
        game_id=game_id, state=Rematch.State.OPEN, expires_at__gt=now
    ).exists():
        return False
    try:
        rematch_decline(game_id=game_id, user=user, reason="left", now=now)
    except (NoOffer, NotAPlayer):
        return False
    return True


def _is_open(rematch: Rematch, now: datetime) -> bool:
    return rematch.state == Rematch.State.OPEN and rematch.expires_at > now


def _locked_game(game_id: int) -> tuple[Game, list[Seat]]:
    game = game_locked(game_id)
    if game.status != Game.Status.FINISHED:
        raise GameNotFinished("only a finished game can be played again")
    if game.table.managed:
        raise TournamentGame("a tournament's games are not played again")
    seats = list(
        Seat.objects.filter(table_id=game.table_id)
        .select_related("user")
        .order_by("number")
    )
    return game, seats


def _seat_of(seats: list[Seat], user) -> Seat:
    for seat in seats:
        if user is not None and seat.user_id == user.pk:
            return seat
    raise NotAPlayer("only the game's players can ask for a rematch")


def _table_again(old: Table, seats: list[Seat], now) -> Table:
    """A table like ``old`` with the same people and bots in the same seats,
    its game started; ``_SeatRefused`` for the first seat that may not be
    taken (every write of it then rolled back by the caller's savepoint)."""
    table = Table.objects.create(
        profile=old.profile,
        options=old.options,
        turn_seconds=old.turn_seconds,
        is_private=old.is_private,
        ranked=old.ranked,
        stake=old.stake,
        settlement=old.settlement,
        points_per_coin=old.points_per_coin,
        rated_with_bots=old.rated_with_bots,
        created_by=old.created_by,
    )
    lock_players(*(seat.user_id for seat in seats if seat.user_id is not None))
    for seat in seats:
        if seat.user is None:
            continue
        if not seat.user.is_active:
            raise _SeatRefused(
                seat.number, NotAllowed("the account is closed", code="banned")
            )
        try:
            stakes.check_may_sit(table, seat.user)
        except NotAllowed as error:
            raise _SeatRefused(seat.number, error) from error
    Seat.objects.bulk_create(
        Seat(
            table=table,
            number=seat.number,
            user=seat.user if seat.user_id is not None else None,
            bot="" if seat.user_id is not None else seat.bot,
        )
        for seat in seats
    )
    try:
        _start_if_full(table, now)
    except NotAllowed as error:  # a stake spent between the check and here
        raise _SeatRefused(None, error) from error
    transaction.on_commit(notify.lobby_changed)
    return table
