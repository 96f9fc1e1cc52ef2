"""The strength benchmark's peer plays its leaves out on the compiled core
from engine states (``benchmarks/core_deal.py``): the core's deal made from
any state in the card play, a trick half played included, offers the
engine's legal moves and plays on to the engine's tricks."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from core_deal import core_deal  # noqa: E402

from joker import apply, legal_actions, make_rules, new_game  # noqa: E402
from joker.bots.bits import play_code  # noqa: E402
from joker.shuffle import deal_cards  # noqa: E402
from joker.state import DEAL, OVER, PLAY  # noqa: E402

PROFILES = {
    "classic": ("georgian-club", {}),
    "tvaladze": ("georgian-tvaladze", {}),
    "japanese": ("japanese", {}),
}


@pytest.mark.parametrize("name", PROFILES)
def test_core_deal_follows_the_engine_through_every_trick(name):
    rules = make_rules(*PROFILES[name])
    rng = random.Random(name)
    state = new_game(rules)
    checked = mid_trick = 0
    for _ in range(12):
        state = apply(state, deal_cards(state, rng))
        while state.phase not in (DEAL, OVER):
            actions = legal_actions(state)
            if state.phase == PLAY:
                deal = core_deal(state)
                assert sorted(deal.legal()) == sorted(map(play_code, actions))
                assert deal.turn == state.turn
                checked += 1
                mid_trick += bool(state.trick)
            action = rng.choice(actions)
            if state.phase == PLAY:
                # The core, given the same move, stands where the engine does.
                deal.play(play_code(action))
                after = apply(state, action)
                if after.phase == PLAY:
                    assert deal.tricks == list(after.tricks)
                    assert sorted(deal.legal()) == sorted(
                        map(play_code, legal_actions(after))
                    )
            state = apply(state, action)
        if state.phase == OVER:
            break
    assert checked > 100
    assert mid_trick > 50
