"""Stored states round-trip exactly; public events carry no dealt card."""

from __future__ import annotations

import json
import random

import pytest

from joker import apply, legal_actions, make_rules, new_game
from joker.actions import Deal
from joker.codec import state_from_json, state_to_json
from joker.events import describe
from joker.shuffle import deal_cards

SETUPS = [
    ("georgian-club", {"schedule": "nines", "pairs": True}),
    ("georgian-tvaladze", None),
    ("live-games", {"scoring": "home-bid"}),
    ("japanese", {"target": 11}),
]


def random_game(profile, options, seed):
    rng = random.Random(seed)
    state = new_game(
        make_rules(profile, options), rng.randrange(4 if profile != "japanese" else 2)
    )
    while not state.is_over:
        if state.phase == "deal":
            action = deal_cards(state, rng)
        else:
            action = rng.choice(legal_actions(state))
        after = apply(state, action)
        yield state, action, after
        state = after


@pytest.mark.parametrize(("profile", "options"), SETUPS)
def test_every_state_round_trips_through_json(profile, options):
    for _, _, after in random_game(profile, options, 5):
        stored = json.loads(json.dumps(state_to_json(after)))
        assert state_from_json(stored) == after


@pytest.mark.parametrize(("profile", "options"), SETUPS)
def test_events_describe_the_game_without_dealt_cards(profile, options):
    tricks = deals_over = 0
    for before, action, after in random_game(profile, options, 6):
        events = describe(before, action, after)
        text = json.dumps(events)
        if isinstance(action, Deal):
            hidden = {c for hand in action.hands for c in hand}
            hidden |= {c for own in action.columns for col in own for c in col}
            hidden.discard(action.turned)
            assert not any(f'"{card}"' in text for card in hidden)
        kinds = [event["type"] for event in events]
        tricks += kinds.count("trick")
        deals_over += kinds.count("deal_over")
    assert deals_over == len(after.deals)
    cards = [18 if profile == "japanese" else deal.cards for deal in after.deals]
    assert tricks == sum(cards)
    assert events[-1]["type"] == "game_over"
    assert events[-1]["places"] == list(after.places)
