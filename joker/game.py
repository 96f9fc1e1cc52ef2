"""The engine's entry points: whose turn it is, legal actions, ``apply``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from .actions import (
    Action,
    Bid,
    Choice,
    Deal,
    NameTrump,
    PlayCard,
    Rejoin,
    Resign,
    kind_of,
)
from .bidding import (
    bid_actions,
    check_bid,
    check_trump,
    make_bid,
    name_trump,
    trump_actions,
)
from .dealing import apply_deal
from .errors import IllegalAction, WrongAction, WrongSeat
from .play import card_actions, check_card, end_game, play_card
from .state import BID, DEAL, OVER, PLAY, TRUMP, State, evolve

# Each phase: the action it is due, its legal actions, the check of one such
# action (raising IllegalAction) and the move to the next state. The check
# and the move take the phase's own kind of action, which the dict cannot tie
# to its phase: they are typed as taking any, and only ever get that kind.
_Phase: TypeAlias = tuple[
    type[Choice],
    Callable[[State], list[Any]],
    Callable[[State, Any], None],
    Callable[[State, Any], State],
]
_PHASES: dict[str, _Phase] = {
    TRUMP: (NameTrump, trump_actions, check_trump, name_trump),
    BID: (Bid, bid_actions, check_bid, make_bid),
    PLAY: (PlayCard, card_actions, check_card, play_card),
}

# The actions ``legal_actions`` listed last, with the state it listed them
# for. A caller usually applies one of those very objects next; the state is
# an immutable value, so that action is known to be legal and ``apply`` makes
# the move without checking it again. Any other action is checked in full.
# Only speed depends on this: ``apply`` returns the same state either way.
_listed: tuple[State | None, tuple[Choice, ...]] = (None, ())


def legal_actions(state: State) -> list[Choice]:
    """Every legal action of the seat to move; empty between deals and after."""
    global _listed
    phase = _PHASES.get(state.phase)
    if phase is None:
        return []
    actions = phase[1](state)
    _listed = (state, tuple(actions))  # a copy: the caller may change its list
    return actions


def apply(state: State, action: Action | Deal) -> State:
    """Return the state after ``action``; raise a typed ``EngineError`` if it
    is not allowed now. ``state`` itself never changes."""
    listed_for, listed = _listed
    if listed_for is state:
        # One of the very objects ``legal_actions`` listed last for this very
        # state is legal: the phase's move is all there is to do. (Looked for
        # here, not in a helper function: this runs on every move.)
        for legal in listed:
            if legal is action:
                return _PHASES[state.phase][3](state, action)
    phase = _PHASES.get(state.phase)
    # The common case first: the kind of action the phase is due, from the
    # seat on turn. Every check of ``_apply_checked`` before the phase's own
    # passes then, so the phase's check and move are all that is left to do.
    if phase is not None and type(action) is phase[0] and action.seat == state.turn:
        phase[2](state, action)
        return phase[3](state, action)
    return _apply_checked(state, action)


def _apply_checked(state: State, action: Action | Deal) -> State:
    """``apply`` for every other case, the errors in their order of precedence."""
    if state.phase == OVER:
        raise WrongAction("the game is over")
    if isinstance(action, Deal):
        if state.phase != DEAL:
            raise WrongAction("the current deal is not finished")
        return apply_deal(state, action)
    if isinstance(action, Resign):
        return _apply_resign(state, action)
    if isinstance(action, Rejoin):
        return _apply_rejoin(state, action)
    if not 0 <= action.seat < state.players:
        raise WrongSeat(f"there is no seat {action.seat}")
    if state.phase == DEAL:
        raise WrongAction("the deal is over: the next deal's cards are due")
    if action.seat != state.turn:
        raise WrongSeat(f"it is seat {state.turn}'s turn, not seat {action.seat}'s")
    kind, _, check, move = _PHASES[state.phase]
    if not isinstance(action, kind):
        raise WrongAction(f"a {state.phase} action is due, not a {kind_of(action)}")
    check(state, action)
    return move(state, action)


def _apply_resign(state: State, action: Resign) -> State:
    seat = action.seat
    if not 0 <= seat < state.players:
        raise WrongSeat(f"there is no seat {seat}")
    if state.phase == DEAL:
        raise WrongAction("a resignation comes inside a deal that is being played")
    if seat in state.left:
        raise IllegalAction(f"seat {seat} has already left")
    state = evolve(state, left=state.left + (seat,))
    if state.rules.is_japanese:
        return end_game(state, loser=seat)
    # A bot plays on for the leaver; the seat keeps its turn order.
    return state


def _apply_rejoin(state: State, action: Rejoin) -> State:
    """The seat is its player's again: no longer counted as a leaver."""
    seat = action.seat
    if not 0 <= seat < state.players:
        raise WrongSeat(f"there is no seat {seat}")
    if seat not in state.left:
        raise IllegalAction(f"seat {seat} has not left")
    return evolve(state, left=tuple(s for s in state.left if s != seat))
