"""Steps of a game made outside a server: scripts, the site, the worker.

While a game is live its owner (``games.live``) applies the players' moves.
These functions make the same steps, decided by the same ``LiveGame`` and
written by the same statements, for code that runs outside the owner: the
demo seeder and scripted games, operators' actions, a tournament called
off. Each holds the game's row lock for its transaction (so two of them go
one after the other), is fenced against the owner by the events' unique
version, and tells the owner to read the game again once it commits.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common.errors import NotAllowed, NotFound
from games.live import journal, loading, relay, thinking
from games.live.commands import Reload
from games.live.game import PLAYER, LiveGame, Step
from games.models import Game


def change_game(
    game_id: int, decide: Callable[[LiveGame], Step], *, client_id: str | None = None
) -> Step:
    """Decide a step on the game as stored, and write it (with what the
    game's end settles, when it ends it)."""
    with transaction.atomic():
        if not Game.objects.select_for_update().filter(pk=game_id).exists():
            raise NotFound(f"there is no game {game_id}")
        live = loading.load(game_id, client_id=client_id)
        step = decide(live)
        if step.events:
            if step.ends_game:
                journal.finish_sync(live, step)
            else:
                journal.write_sync(live, step)
            reload = Reload(step.version)
            transaction.on_commit(lambda: relay.tell_owner(game_id, reload))
    return step


def game_play_out(game_id: int, decide: Callable[[LiveGame], Step]) -> None:
    """Play a game to its end in this process, each step decided by
    ``decide`` on the game as held. The game is read once and kept as its
    owner keeps it, and each step is written as the owner writes it (the
    last with what the end settles), so a move costs a write rather than a
    reading of the whole game: for whole games that nobody watches, the demo
    data's and those of the tests about what follows a game."""
    live = loading.load(game_id)
    if live is None:
        raise NotFound(f"there is no game {game_id}")
    while live.status == Game.Status.PLAYING:
        step = decide(live)
        if step.ends_game:
            journal.finish_sync(live, step)
        else:
            journal.write_sync(live, step)
        live.commit(step)
    reload = Reload(live.version)
    transaction.on_commit(lambda: relay.tell_owner(game_id, reload))


def _seat_of(live: LiveGame, user) -> int:
    for seat in live.seats:
        if seat.user_id == user.pk:
            return seat.number
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
    """Apply ``user``'s action (a record action without ``seat``), chosen
    on ``expected_version``; ``client_id`` makes a resend apply once."""
    now = now or timezone.now()

    def decide(live: LiveGame) -> Step:
        return live.decide_play(
            _seat_of(live, user),
            action,
            expected_version=expected_version,
            client_id=client_id,
            now=now,
            lag=settings.PULKA_MOVE_LAG_SECONDS,
        )

    return change_game(game_id, decide, client_id=client_id).answer


def game_resign(*, game_id: int, user) -> dict:
    """Leave a game in progress: in Japanese Joker the opponent wins; in a
    4-player game a bot plays the seat on and its player is placed last."""
    now = timezone.now()

    def decide(live: LiveGame) -> Step:
        return live.decide_resign(_seat_of(live, user), cause=PLAYER, now=now)

    return change_game(game_id, decide).answer


def game_abort(*, game_id: int, user) -> None:
    """Call a game off before its first card; nobody wins or loses."""
    now = timezone.now()

    def decide(live: LiveGame) -> Step:
        return live.decide_abort(_seat_of(live, user), now)

    change_game(game_id, decide)


def game_call_off(*, game_id: int) -> bool:
    """Stop a game in progress for the site (its tournament was cancelled):
    no result, stakes back. False when it was no longer being played."""
    now = timezone.now()

    def decide(live: LiveGame) -> Step:
        if live.status != Game.Status.PLAYING:
            return Step(events=(), state=live.state, deadline=None)
        return live.decide_abort(None, now)

    return bool(change_game(game_id, decide).events)


def game_advance_overdue(*, game_id: int, version: int, now=None) -> bool:
    """Make the move due at ``version`` once its deadline has passed, as
    the owner's alarm does: the bot's move, or the autopilot's for a person
    out of time. False (nothing done) when the game has moved on, is over,
    or the deadline is still ahead."""
    now = now or timezone.now()

    def decide(live: LiveGame) -> Step:
        nothing = Step(events=(), state=live.state, deadline=live.deadline)
        if live.status != Game.Status.PLAYING or live.version != version:
            return nothing
        if live.deadline is None or live.deadline > now:
            return nothing
        return automatic_move(live, now)

    try:
        return bool(change_game(game_id, decide).events)
    except NotFound:
        return False


def automatic_move(live: LiveGame, now) -> Step:
    """The move made when the turn's time is up at ``now``, as the owner's
    alarm makes it: the bot's (a practice bot thinks here), or the
    autopilot's for a person out of time."""
    seat = live.to_move
    thought = None
    if thinking.thinks(seat.bot) and not seat.left:
        thought = thinking.practice_move(
            live.state,
            list(live.deal_actions),
            seat.bot,
            settings.PULKA_PRACTICE_BOT_SECONDS,
        )
    return live.decide_automatic(now, thought)


def hand_over_unowned() -> int:
    """Hand every game being played that no server owns to a server (the
    beat's sweep); returns how many were handed over."""
    playing = list(
        Game.objects.filter(status=Game.Status.PLAYING).values_list("pk", flat=True)
    )
    orphans = relay.unowned(playing)
    relay.hand_over(orphans)
    return len(orphans)
