"""The engine's entry points: whose turn it is, legal actions, ``apply``."""

from __future__ import annotations

from .actions import Action, Bid, Deal, NameTrump, PlayCard, Resign, kind_of
from .bidding import apply_bid, apply_trump, bid_actions, trump_actions
from .dealing import apply_deal
from .errors import IllegalAction, WrongAction, WrongSeat
from .play import apply_card, card_actions, end_game
from .state import BID, DEAL, OVER, PLAY, TRUMP, State, evolve

_PHASES = {
    TRUMP: (NameTrump, trump_actions, apply_trump),
    BID: (Bid, bid_actions, apply_bid),
    PLAY: (PlayCard, card_actions, apply_card),
}


def legal_actions(state: State) -> list[Action]:
    """Every legal action of the seat to move; empty between deals and after."""
    phase = _PHASES.get(state.phase)
    return phase[1](state) if phase else []


def apply(state: State, action: Action | Deal) -> State:
    """Return the state after ``action``; raise a typed ``EngineError`` if it
    is not allowed now. ``state`` itself never changes."""
    phase = _PHASES.get(state.phase)
    # The common case first: the kind of action the phase is due, from the
    # seat on turn. Every check of ``_apply_checked`` before the phase's own
    # passes then, so the phase's ``apply`` is all that is left to do.
    if phase is not None and type(action) is phase[0] and action.seat == state.turn:
        return phase[2](state, action)
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
    if not 0 <= action.seat < state.players:
        raise WrongSeat(f"there is no seat {action.seat}")
    if state.phase == DEAL:
        raise WrongAction("the deal is over: the next deal's cards are due")
    if action.seat != state.turn:
        raise WrongSeat(f"it is seat {state.turn}'s turn, not seat {action.seat}'s")
    kind, _, apply_phase = _PHASES[state.phase]
    if not isinstance(action, kind):
        raise WrongAction(f"a {state.phase} action is due, not a {kind_of(action)}")
    return apply_phase(state, action)


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
