"""The A/B benchmark of two practice-bot configurations
(``benchmarks/bot_ab.py``): its knobs are ``SearchOptions`` fields, and a
deal set is played from every seat with A in each in turn."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bot_ab  # noqa: E402

from joker.bots.ismcts import SearchOptions  # noqa: E402


def test_options_are_search_options_fields_of_their_types():
    options = bot_ab.options_of(["bid_budget=4", "bid_search=tree"])
    assert options == SearchOptions(bid_budget=4.0, bid_search="tree")
    assert bot_ab.options_of([]) == SearchOptions()
    with pytest.raises(SystemExit):
        bot_ab.options_of(["no_such_knob=1"])


@pytest.mark.parametrize("game, rotations", [("classic", 4), ("japanese", 2)])
def test_a_deal_set_is_played_from_every_seat(game, rotations):
    task = {"game": game, "seed": 3, "index": 0, "budget_a": 0.002}
    task.update(budget_b=0.002, a=["bid_budget=2"], b=[])
    result = bot_ab.play_set(task)
    assert len(result["rotations"]) == rotations
    assert result["a_seconds"] and result["b_seconds"]
    assert max(result["a_seconds"]) < 1.0
