"""``apply`` makes the move without checking it again when it is given one of
the very actions ``legal_actions`` just listed for that state. These tests
hold it to the full check: the same state as for an equal copy of the action
(which is checked), and the same refusal for an action listed for another
state."""

from __future__ import annotations

import dataclasses
import random

import pytest

from joker import EngineError, apply, legal_actions, make_rules, new_game
from joker.shuffle import deal_cards
from joker.state import DEAL
from tests.joker.fingerprint import OPTIONS

GAMES = 4


def outcome(state, action):
    """The state after ``action``, or the refusal as (type, message)."""
    try:
        return apply(state, action)
    except EngineError as error:
        return type(error), str(error)


def checked(state, action):
    """``apply`` with an equal copy of ``action``, which is always checked."""
    return outcome(state, dataclasses.replace(action))


@pytest.mark.parametrize("profile", list(OPTIONS))
def test_listed_actions_move_as_the_full_check_does(profile):
    for index, options in enumerate(OPTIONS[profile] * GAMES):
        rules = make_rules(profile, options)
        rng = random.Random(f"listed/{profile}/{index}")
        state = new_game(rules, first_dealer=rng.randrange(rules.players))
        earlier = []  # the actions listed for the previous state
        while not state.is_over:
            if state.phase == DEAL:
                state = apply(state, deal_cards(state, rng))
                continue
            # Listed for another state: checked, whether legal here or not.
            for action in earlier:
                assert outcome(state, action) == checked(state, action)
            listed = legal_actions(state)
            for action in listed:
                moved = apply(state, action)
                assert moved == checked(state, action)
                assert legal_actions(state) == listed  # list again for the next
            earlier = listed
            state = apply(state, rng.choice(listed))


def test_a_changed_list_does_not_change_what_is_legal():
    rules = make_rules("georgian-club", {})
    rng = random.Random(3)
    state = new_game(rules, first_dealer=0)
    state = apply(state, deal_cards(state, rng))
    listed = legal_actions(state)
    stranger = dataclasses.replace(listed[0], bid=99)
    listed.append(stranger)
    with pytest.raises(EngineError):
        apply(state, stranger)
