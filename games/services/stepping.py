"""Applying steps to a locked game: the one writer of game state.

Every function here expects the caller to hold the game's row lock
(``select_for_update``) inside ``transaction.atomic``; each step appends one
``GameEvent`` and bumps the version. The events are written with the game
by ``commit_game``, which must follow the steps. Broadcasts and timers are
arranged with ``transaction.on_commit``, so nothing is announced that was
rolled back.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import fairness, rows, signals
from games.engine import apply
from games.engine.actions import Deal, PlayCard, Resign, action_to_json
from games.engine.codec import state_to_json
from games.engine.events import describe
from games.engine.shuffle import deal_cards
from games.engine.state import DEAL, State
from games.models import DealRecord, Game, GameEvent, Seat, Table
from games.selectors import seats_of

from . import notify, stakes


def step(game: Game, state: State, action, *, cause: str, events: list, now) -> State:
    """Apply one seat action (raises ``EngineError`` with nothing changed),
    record it at ``now``, and deal the next deal when this one is over."""
    after = apply(state, action)
    game.version += 1
    public = describe(state, action, after)
    rows.insert_event(
        game,
        version=game.version,
        kind=GameEvent.Kind.ACTION,
        seat=action.seat,
        cause=cause,
        action=action_to_json(action),
        public=public,
        now=now,
    )
    events.append({"version": game.version, "events": public})
    if isinstance(action, PlayCard):
        game.cards_played += 1
    if isinstance(action, Resign):
        Seat.objects.filter(table_id=game.table_id, number=action.seat).update(
            left=True
        )
    if after.phase == DEAL:
        after = deal_next(game, after, events, now)
    return after


def deal_next(game: Game, state: State, events: list, now) -> State:
    """Shuffle, store and commit to the next deal, and start it."""
    index = state.deal_index
    deal: Deal = deal_cards(state)
    salt, commitment = fairness.commit(index, deal)
    DealRecord.objects.create(
        game=game,
        index=index,
        hands=[list(hand) for hand in deal.hands],
        turned=deal.turned or "",
        columns=[[list(column) for column in own] for own in deal.columns],
        salt=salt,
        commitment=commitment,
    )
    after = apply(state, deal)
    game.version += 1
    public = describe(state, deal, after)
    public[0]["commitment"] = commitment
    game.commitments = [*game.commitments, commitment]
    rows.insert_event(
        game,
        version=game.version,
        kind=GameEvent.Kind.DEAL,
        action={"deal": index},
        public=public,
        now=now,
    )
    events.append({"version": game.version, "events": public})
    return after


def commit_game(
    game: Game, state: State, events: list, now, seats: list | None = None
) -> None:
    """Save the new state as of ``now``, set the next deadline, and arrange
    what happens after commit: the broadcast and the timer for the next move.

    ``seats`` are the game's seats read under the game's lock (``seats_of``),
    when the caller already has them and no step changed them; otherwise
    they are read here."""
    if seats is None:
        seats = seats_of(game)
    game.state = state_to_json(state)
    table = game.table
    if state.is_over:
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.deadline = None
        game.result = {
            "totals": list(state.totals),
            "places": list(state.places),
            "winners": state.winners,
            "left": list(state.left),
        }
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    else:
        if seats[state.turn].played_by_bot:
            delay = settings.PULKA_BOT_MOVE_SECONDS
        else:
            delay = table.turn_seconds
        game.deadline = now + timedelta(seconds=delay)
    rows.save_step(game)
    if state.is_over:
        stakes.settle(game)
        announce_end(game)
    transaction.on_commit(lambda: notify.game_changed(game, state, events, seats))
    game_id, version, deadline = game.pk, game.version, game.deadline
    if deadline is not None and not _sweep_covers(deadline):
        transaction.on_commit(lambda: notify.schedule_move(game_id, version, deadline))


def _sweep_covers(deadline) -> bool:
    """Whether the periodic sweep already moves a game with this deadline:
    it takes every deadline older than its margin, so a countdown for one
    would only make the same move twice over (its second try a no-op). Only
    a game played on an earlier clock (the demo's) has such deadlines."""
    margin = timedelta(seconds=settings.PULKA_SWEEP_MARGIN_SECONDS)
    return deadline < timezone.now() - margin


def stop_game(game: Game) -> None:
    """Stop a game being played: an abort event, no deadline, the table
    closed, and the players told once the change commits. The caller sets
    the game's final status and saves it."""
    game.version += 1
    rows.insert_event(
        game,
        version=game.version,
        kind=GameEvent.Kind.ABORT,
        public=[{"type": "aborted"}],
        now=timezone.now(),
    )
    rows.write_pending(game)
    game.deadline = None
    Table.objects.filter(pk=game.table_id).update(status=Table.Status.ABORTED)
    events = [{"version": game.version, "events": [{"type": "aborted"}]}]
    state = game.engine_state()
    transaction.on_commit(
        lambda: notify.game_changed(game, state, events, seats_of(game))
    )
    announce_end(game)


def announce_end(game: Game) -> None:
    """Tell the listeners of ``signals.game_ended`` once the end commits."""
    game_id, table_id = game.pk, game.table_id
    transaction.on_commit(
        lambda: signals.game_ended.send(sender=Game, game_id=game_id, table_id=table_id)
    )
