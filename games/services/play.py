"""Actions in a game in progress: moves, resigning, aborting, timeouts."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError, NotAllowed, NotFound
from games import rows
from games.bots import automatic_move
from games.engine import EngineError
from games.engine.actions import Resign, action_from_json
from games.errors import NotPlaying, StaleVersion
from games.models import Game, GameEvent, Seat
from games.selectors import seats_of

from . import stakes
from .stepping import commit_game, step, stop_game


def locked_game(game_id: int) -> Game:
    """The game with its row locked until the transaction ends."""
    game = rows.lock_game(game_id)
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    return game


def _seat_of(seats: list[Seat], user) -> Seat:
    for seat in seats:
        if seat.user_id == user.pk:
            return seat
    raise NotAllowed("you have no seat in this game")


def game_act(
    *,
    game_id: int,
    user,
    action: dict,
    expected_version: int,
    client_id: str,
    now=None,
) -> dict:
    """Apply ``user``'s action, given as a record action without ``seat``.

    Locks the game row; refuses (``StaleVersion``) unless ``expected_version``
    is the current version, so that of two actions sent at once on the same
    state exactly one is applied. ``client_id`` makes a resend idempotent: a
    second request with the same id gets the first answer and changes nothing.
    """
    now = now or timezone.now()
    with transaction.atomic():
        # Read once under the lock: whose seat this is, who moves next, the
        # names the broadcast shows, and whether this action id was answered.
        game, seats, answers = rows.lock_for_move(game_id, client_id)
        if game is None:
            raise NotFound(f"there is no game {game_id}")
        seat = _seat_of(seats, user)
        if seat.number in answers:
            return answers[seat.number]
        if game.status != Game.Status.PLAYING:
            raise NotPlaying("the game is over")
        if expected_version != game.version:
            raise StaleVersion(
                f"the game is at version {game.version}, not {expected_version}"
            )
        if seat.left:
            raise NotAllowed("you have left this game")
        if not isinstance(action, dict) or "seat" in action:
            raise ApplicationError(
                "an action is an object without 'seat'", code="bad_action"
            )
        try:
            engine_action = action_from_json({**action, "seat": seat.number})
            if isinstance(engine_action, Resign):
                raise ApplicationError(
                    "resign with a resign message", code="bad_action"
                )
            events: list = []
            state = step(
                game,
                game.engine_state(),
                engine_action,
                cause=GameEvent.Cause.PLAYER,
                events=events,
                now=now,
            )
        except EngineError as error:
            raise ApplicationError(str(error), code=error.code) from error
        answer = {"version": game.version}
        rows.insert_receipt(game, seat.number, client_id, answer, now)
        commit_game(game, state, events, now, seats=seats)
        return answer


def game_resign(*, game_id: int, user) -> dict:
    """Leave a game in progress: in Japanese Joker the opponent wins; in a
    4-player game a bot plays the seat on and its player is placed last."""
    with transaction.atomic():
        game = locked_game(game_id)
        seat = _seat_of(seats_of(game), user)
        if game.status != Game.Status.PLAYING:
            raise NotPlaying("the game is over")
        return resign_seat(game, seat, GameEvent.Cause.PLAYER, timezone.now())


def resign_seat(game: Game, seat: Seat, cause: str, now) -> dict:
    if seat.left:
        raise NotAllowed("you have already left this game")
    events: list = []
    state = step(
        game,
        game.engine_state(),
        Resign(seat.number),
        cause=cause,
        events=events,
        now=now,
    )
    commit_game(game, state, events, now)
    return {"version": game.version}


def game_abort(*, game_id: int, user) -> None:
    """Call a game off before its first card; nobody wins or loses."""
    with transaction.atomic():
        game = locked_game(game_id)
        _seat_of(seats_of(game), user)
        if game.status != Game.Status.PLAYING:
            raise NotPlaying("the game is over")
        if game.table.managed:
            raise NotAllowed("a tournament game cannot be called off")
        if game.cards_played:
            raise NotAllowed("a game can be aborted only before its first card")
        stop_game(game)
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.save()
        stakes.refund(game)


def game_call_off(*, game_id: int) -> bool:
    """Stop a game in progress for the site (its tournament was cancelled):
    no result, stakes back. False when it was no longer being played."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.PLAYING:
            return False
        stop_game(game)
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.save()
        stakes.refund(game)
        return True


def game_advance_overdue(*, game_id: int, version: int, now=None) -> bool:
    """Make the move that is due at ``version`` once its deadline has passed.

    A bot's seat gets the bot's move; a person who ran out of time gets one
    deterministic autopilot move, and the timer starts again for the next
    move. Does nothing (returns False) when the game has moved on, is over,
    or the deadline is still ahead, so a timer delivered twice acts once.
    """
    now = now or timezone.now()
    with transaction.atomic():
        try:
            game = locked_game(game_id)
        except NotFound:
            return False
        if game.status != Game.Status.PLAYING or game.version != version:
            return False
        if game.deadline is None or game.deadline > now:
            return False
        state = game.engine_state()
        seats = seats_of(game)
        seat = seats[state.turn]
        cause = GameEvent.Cause.BOT if seat.played_by_bot else GameEvent.Cause.TIMEOUT
        if cause == GameEvent.Cause.TIMEOUT and _forfeits(game, seat):
            resign_seat(game, seat, GameEvent.Cause.TIMEOUT, now)
            return True
        action = automatic_move(game, state, seat)
        events: list = []
        state = step(game, state, action, cause=cause, events=events, now=now)
        commit_game(game, state, events, now, seats=seats)
        return True


def _forfeits(game: Game, seat: Seat) -> bool:
    """Whether this timeout is one too many: the seat's last moves (as many
    as the table allows, less this one) all timed out too."""
    limit = game.table.forfeit_after_timeouts
    if not limit:
        return False
    if limit == 1:
        return True
    causes = list(
        GameEvent.objects.filter(
            game=game, seat=seat.number, kind=GameEvent.Kind.ACTION
        )
        .order_by("-version")
        .values_list("cause", flat=True)[: limit - 1]
    )
    return len(causes) == limit - 1 and all(
        cause == GameEvent.Cause.TIMEOUT for cause in causes
    )


def sweep_overdue(*, now=None) -> int:
    """Catch every move whose timer task was lost; returns how many moved."""
    now = now or timezone.now()
    margin = timedelta(seconds=settings.PULKA_SWEEP_MARGIN_SECONDS)
    overdue = Game.objects.filter(
        status=Game.Status.PLAYING, deadline__lt=now - margin
    ).values_list("pk", "version")
    moved = 0
    for game_id, version in overdue:
        moved += game_advance_overdue(game_id=game_id, version=version, now=now)
    return moved
