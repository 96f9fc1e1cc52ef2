"""The strength benchmark's duplicate deal sets (``benchmarks/bot_strength.py``):
every rotation plays the same deal from the same game, so two bots that
play alike score exactly 0 on every set, and a worse bot scores below 0."""

from __future__ import annotations

import random
import statistics
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bot_strength  # noqa: E402

from joker import legal_actions  # noqa: E402
from joker.bots import autopilot_action  # noqa: E402


class Autopilot:
    def __init__(self):
        self.iterations = []

    def choose(self, state, deal_actions):
        return autopilot_action(state)


class Random:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.iterations = []

    def choose(self, state, deal_actions):
        return self.rng.choice(legal_actions(state))


@pytest.mark.parametrize("name", ["classic-cpu", "japanese-cpu"])
def test_alike_bots_score_zero_on_every_deal_set(monkeypatch, name):
    monkeypatch.setattr(bot_strength, "make_bot", lambda mode, ours, seed: Autopilot())
    for index in range(6):
        result = bot_strength.play_set({"name": name, "index": index, "seed": 3})
        assert result["score"] == pytest.approx(0, abs=1e-9)
        assert len(result["rotations"]) == (4 if name.startswith("classic") else 2)


def test_deal_sets_draw_sizes_and_games_before_them():
    rules = bot_strength.make_rules(*bot_strength.GAMES["classic"])
    drawn = [bot_strength.deal_set(rules, seed)[0] for seed in range(40)]
    assert len({state.cards_each for state in drawn}) > 5
    assert any(state.deals and state.totals != (0, 0, 0, 0) for state in drawn)
    # The same seed, the same deal: every rotation plays one deal set.
    again = bot_strength.deal_set(rules, 7)
    assert again == bot_strength.deal_set(rules, 7)


def test_a_worse_bot_scores_below_zero(monkeypatch):
    def make_bot(mode, ours, seed):
        return Random(seed) if ours else Autopilot()

    monkeypatch.setattr(bot_strength, "make_bot", make_bot)
    scores = [
        bot_strength.play_set({"name": "japanese-cpu", "index": i, "seed": 3})["score"]
        for i in range(12)
    ]
    mean, low, high = bot_strength.interval(scores)
    assert mean == statistics.fmean(scores)
    assert high < 0
