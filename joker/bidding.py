"""Naming trump and bidding (RULES.md 2.2-2.3, 3.1)."""

from __future__ import annotations

from .actions import Bid, NameTrump
from .cards import TRUMP_CHOICES
from .errors import IllegalAction
from .state import BID, PLAY, State, evolve

# Trump and bid actions are immutable values: make each one once (bids go
# up to the 9 cards of the largest deal).
_TRUMPS = tuple(tuple(NameTrump(seat, t) for t in TRUMP_CHOICES) for seat in range(4))
_BIDS = tuple(tuple(Bid(seat, n) for n in range(10)) for seat in range(4))


def trump_actions(state: State) -> list[NameTrump]:
    seat = state.turn
    assert seat is not None  # a seat names trump on its turn
    return list(_TRUMPS[seat])


def check_trump(state: State, action: NameTrump) -> None:
    if action.trump not in TRUMP_CHOICES:
        raise IllegalAction(f"{action.trump!r} is not a trump: S, H, D, C or none")


def name_trump(state: State, action: NameTrump) -> State:
    """The state after a trump ``check_trump`` allows."""
    if state.rules.is_japanese:
        # The declarer leads the first trick; there is no bidding.
        return evolve(state, trump=action.trump, phase=PLAY, turn=state.leader)
    return evolve(state, trump=action.trump, phase=BID, turn=state.leader)


def forbidden_bid(state: State) -> int | None:
    """The bid the dealer may not make, or None for the other seats."""
    if state.turn != state.dealer:
        return None
    # filter(None, ...) drops the bids not made yet (None) and the zeros,
    # which add nothing: the sum of the bids made, without a generator.
    return state.cards_each - sum(filter(None, state.bids))


def bid_actions(state: State) -> list[Bid]:
    forbidden = forbidden_bid(state)
    # _BIDS[seat][n] is the bid of n, so the bids from 0 to n are a slice.
    seat = state.turn
    assert seat is not None  # a seat bids on its turn
    bids = list(_BIDS[seat][: state.cards_each + 1])
    if forbidden is not None and 0 <= forbidden < len(bids):
        del bids[forbidden]
    return bids


def check_bid(state: State, action: Bid) -> None:
    n = state.cards_each
    if not 0 <= action.bid <= n:
        raise IllegalAction(f"a bid is from 0 to {n}, not {action.bid}")
    if action.bid == forbidden_bid(state):
        raise IllegalAction(
            f"the dealer may not bid {action.bid}: the bids would sum to {n}"
        )


def make_bid(state: State, action: Bid) -> State:
    """The state after a bid ``check_bid`` allows."""
    bids = list(state.bids)
    bids[action.seat] = action.bid
    if action.seat == state.dealer:
        # The dealer bids last; the player left of the dealer leads.
        return evolve(state, bids=tuple(bids), phase=PLAY, turn=state.leader)
    return evolve(state, bids=tuple(bids), turn=(action.seat + 1) % state.players)
