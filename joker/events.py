"""Public descriptions of what an action did, for game logs and live updates.

Everything here is public knowledge: who named which trump, bid what, played
which card, who took a trick, deal and game results. Dealt cards are never
described (a deal event says only which deal began and the face-up card).
"""

from __future__ import annotations

from .actions import (
    Action,
    Bid,
    Deal,
    NameTrump,
    PlayCard,
    Rejoin,
    Resign,
    choice_to_json,
)
from .jsontypes import JsonObject
from .state import OVER, State


def describe(before: State, action: Action | Deal, after: State) -> list[JsonObject]:
    """The public events of one applied action, in order."""
    if isinstance(action, Deal):
        return [
            {
                "type": "deal",
                "deal": before.deal_index,
                "dealer": after.dealer,
                "cards": after.cards_each,
                "turned": after.turned,
                "trump": after.trump,
            }
        ]
    seat = action.seat
    events: list[JsonObject]
    if isinstance(action, NameTrump):
        events = [{"type": "trump", "seat": seat, "trump": action.trump}]
    elif isinstance(action, Bid):
        events = [{"type": "bid", "seat": seat, "bid": action.bid}]
    elif isinstance(action, Resign):
        events = [{"type": "resign", "seat": seat}]
    elif isinstance(action, Rejoin):
        events = [{"type": "rejoin", "seat": seat}]
    elif isinstance(action, PlayCard):
        events = [{"type": "card", "seat": seat, **choice_to_json(action)}]
        events += _trick_events(before, action, after)
    else:
        raise TypeError(f"not an action: {action!r}")
    if after.phase == OVER and before.phase != OVER:
        events.append(
            {
                "type": "game_over",
                "totals": list(after.totals),
                "places": list(after.places),
                "winners": after.winners,
            }
        )
    return events


def _trick_events(before: State, action: PlayCard, after: State) -> list[JsonObject]:
    if len(before.trick) + 1 < before.players:
        return []
    trick = before.trick + (action,)
    finished_deal = len(after.deals) > len(before.deals)
    # A finished deal's trick winners move into its result.
    winners = after.deals[-1].trick_winners if finished_deal else after.trick_winners
    events: list[JsonObject] = []
    events.append(
        {
            "type": "trick",
            "winner": winners[-1],
            "cards": [choice_to_json(p) | {"seat": p.seat} for p in trick],
        }
    )
    if finished_deal:
        events.append(
            {
                "type": "deal_over",
                "deal": before.deal_index,
                "result": after.deals[-1].to_json(after.rules),
            }
        )
        if len(after.pulkas) > len(before.pulkas):
            events.append({"type": "pulka_over", **after.pulkas[-1].to_json()})
    return events
