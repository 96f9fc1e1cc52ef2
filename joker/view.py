"""What one seat, or a spectator, may see: the only place that decides it.

A seat sees its own hand, every face-up card, every card played, bids,
tricks, scores and the number of cards in each hand; never another hand, a
face-down card or the undealt rest of the deck. Anything sent to a client
is built from ``view``.
"""

from __future__ import annotations

from .actions import choice_to_json, offer_to_json
from .cards import sorted_cards
from .game import legal_actions
from .jsontypes import JsonObject
from .record import next_json
from .state import DEAL, OVER, TRUMP, State

# Before trump is named only the first three cards are dealt.
CARDS_BEFORE_TRUMP = 3


def view(state: State, seat: int | None = None) -> JsonObject:
    """The state as ``seat`` sees it; ``None`` gives the spectators' view."""
    rules = state.rules
    in_deal = state.phase not in (DEAL, OVER)
    return {
        "profile": rules.profile,
        "options": dict(rules.options),
        "players": rules.players,
        "deal": state.deal_index,
        "dealer": state.dealer if in_deal else None,
        "cards": state.cards_each if in_deal else None,
        "trump": state.trump,
        "turned": state.turned,
        "bids": list(state.bids),
        "tricks": list(state.tricks) if in_deal else [],
        "trick": [choice_to_json(play) | {"seat": play.seat} for play in state.trick],
        "trick_number": len(state.trick_winners),
        "deals": [deal.to_json(rules) for deal in state.deals],
        "pulkas": [pulka.to_json() for pulka in state.pulkas],
        "places": list(state.places),
        "seat": seat,
        **position(state, seat),
    }


def _visible_before_trump(state: State, seat: int) -> tuple[str, ...]:
    if state.rules.is_japanese or seat == state.turn:
        return state.hands[seat][:CARDS_BEFORE_TRUMP]
    return ()


def _own_hand(state: State, seat: int | None) -> list[str]:
    if seat is None or not 0 <= seat < state.players:
        return []
    if state.phase == TRUMP:
        return list(_visible_before_trump(state, seat))
    return sorted_cards(state.hands[seat])


def _columns(state: State) -> list[list[JsonObject]]:
    """Every column shows its face-up card; the face-down card stays hidden."""
    return [[{"up": up, "down": "hidden"} for _, up in own] for own in state.columns]


def position(state: State, seat: int | None = None) -> JsonObject:
    """What ``seat`` is told after a step besides the step's public events.

    A client keeps its view by applying the events (``follow``) and then
    taking these fields: whose turn it is and in which phase (the order of
    play is the engine's to know), the scores (pulka premiums included), who
    has left, the cards on the table by seat, and what only this seat may
    see: its own hand and, on its turn, its legal choices. Everything here
    is a few short lists: far less than a whole ``view``.
    """
    in_deal = state.phase not in (DEAL, OVER)
    out: JsonObject = {
        "phase": state.phase,
        "turn": state.turn,
        "hand": _own_hand(state, seat) if in_deal else [],
        "hand_sizes": [len(hand) for hand in state.hands] if in_deal else [],
        "columns": _columns(state) if in_deal and state.phase != TRUMP else [],
        "totals": list(state.totals),
        "left": list(state.left),
    }
    if state.phase == TRUMP:
        out["hand_sizes"] = [
            len(_visible_before_trump(state, s)) for s in range(state.players)
        ]
    if state.phase == DEAL:
        out["next_deal"] = next_json(state)
    # A seat whose player has left is played by a bot: its view is for
    # watching only.
    if seat is not None and seat == state.turn and seat not in state.left:
        out["legal"] = [offer_to_json(action) for action in legal_actions(state)]
    return out
