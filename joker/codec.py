"""A ``State`` as plain JSON data and back, for storing a game between moves.

The stored form is the server's own: it holds every hidden card, so it is
never sent to a client (``view`` is for that).
"""

from __future__ import annotations

from typing import Any

from .actions import PlayCard
from .jsontypes import JsonObject
from .rules import make_rules
from .scoring import PulkaResult
from .state import DealResult, State

_TUPLE_FIELDS = ("bids", "tricks", "trick_winners", "totals", "left", "places")


def state_to_json(state: State) -> JsonObject:
    return {
        "profile": state.rules.profile,
        "options": dict(state.rules.options),
        "first_dealer": state.first_dealer,
        "phase": state.phase,
        "deal_index": state.deal_index,
        "turn": state.turn,
        "hands": [list(hand) for hand in state.hands],
        "columns": [[list(column) for column in own] for own in state.columns],
        "turned": state.turned,
        "trump": state.trump,
        "trick": [[p.seat, p.card, p.mode, p.suit] for p in state.trick],
        "leader": state.leader,
        "deals": [_deal_to_json(deal) for deal in state.deals],
        "pulkas": [
            [p.pulka, list(p.premium), list(p.bonus), list(p.deduction)]
            for p in state.pulkas
        ],
        **{name: list(getattr(state, name)) for name in _TUPLE_FIELDS},
    }


def state_from_json(data: JsonObject) -> State:
    return State(
        rules=make_rules(data["profile"], data["options"]),
        first_dealer=data["first_dealer"],
        phase=data["phase"],
        deal_index=data["deal_index"],
        turn=data["turn"],
        hands=tuple(tuple(hand) for hand in data["hands"]),
        columns=tuple(
            tuple(tuple(column) for column in own) for own in data["columns"]
        ),
        turned=data["turned"],
        trump=data["trump"],
        trick=tuple(PlayCard(*play) for play in data["trick"]),
        leader=data["leader"],
        deals=tuple(_deal_from_json(deal) for deal in data["deals"]),
        pulkas=tuple(
            PulkaResult(pulka, tuple(premium), tuple(bonus), tuple(deduction))
            for pulka, premium, bonus, deduction in data["pulkas"]
        ),
        **{name: tuple(data[name]) for name in _TUPLE_FIELDS},
    )


def _deal_to_json(deal: DealResult) -> list[object]:
    return [
        deal.dealer,
        deal.cards,
        deal.trump,
        list(deal.bids),
        list(deal.tricks),
        list(deal.trick_winners),
        list(deal.scores),
    ]


def _deal_from_json(data: list[Any]) -> DealResult:
    dealer, cards, trump, bids, tricks, winners, scores = data
    return DealResult(
        dealer, cards, trump, tuple(bids), tuple(tricks), tuple(winners), tuple(scores)
    )
