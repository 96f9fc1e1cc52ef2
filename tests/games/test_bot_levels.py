"""The practice bot's levels (budgets of thinking time), and the Monte Carlo
bot's own time limit."""

from __future__ import annotations

import random
import time

import pytest

from games.live import thinking
from joker import apply, legal_actions, make_rules, new_game
from joker.bots import MonteCarloBot, autopilot_action
from joker.shuffle import deal_cards
from joker.state import DEAL, PLAY


def a_state_in_play(profile: str, seed: int = 3):
    """A seeded game moved on by the autopilot until a card is to be played
    with more than one choice."""
    rng = random.Random(seed)
    state = new_game(make_rules(profile, {}), 0)
    while not (state.phase == PLAY and len(legal_actions(state)) > 1):
        if state.phase == DEAL:
            state = apply(state, deal_cards(state, rng))
        else:
            state = apply(state, autopilot_action(state))
    return state


class Ticks:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("profile", ["japanese", "georgian-club"])
def test_a_bot_out_of_time_stops_sampling(profile):
    state = a_state_in_play(profile)
    # Each read of the clock is a tenth of a second later: with a budget of
    # 0.35 s the bot has time for a few of its 50 deals only.
    bot = MonteCarloBot(samples=50, seconds=0.35, clock=Ticks(0.1))
    assert bot.choose(state) in legal_actions(state)
    assert 1 <= bot.samples_used < 50


def test_a_bot_with_time_to_spare_plays_as_without_a_budget():
    state = a_state_in_play("georgian-club", seed=8)
    timed = MonteCarloBot(samples=6, rng=random.Random(5), seconds=60)
    untimed = MonteCarloBot(samples=6, rng=random.Random(5))
    assert timed.choose(state) == untimed.choose(state)
    assert timed.samples_used == 6


def test_even_a_bot_out_of_time_at_once_tries_one_deal():
    state = a_state_in_play("japanese")
    bot = MonteCarloBot(samples=10, seconds=0, clock=Ticks(1))
    assert bot.choose(state) in legal_actions(state)
    assert bot.samples_used == 1


@pytest.mark.parametrize("japanese", [False, True])
def test_the_levels_are_ever_stronger_budgets(japanese):
    easy, normal, strong = (
        thinking.budget_share(kind, japanese) for kind in ("easy", "practice", "strong")
    )
    assert easy < normal < strong
    assert normal == 1 or japanese
    assert not thinking.thinks("autopilot") and not thinking.thinks("")


@pytest.mark.parametrize("level", ["easy", "practice", "strong"])
@pytest.mark.parametrize("profile", ["japanese", "georgian-club"])
def test_each_level_plays_a_legal_move_and_says_how_long_it_thought(profile, level):
    state = a_state_in_play(profile)
    thought = thinking.practice_move(state, None, level, seconds=0.05)
    assert thought.action in legal_actions(state)
    assert thought.milliseconds >= 0


def test_a_long_wait_for_a_bot_process_counts_against_its_budget(monkeypatch):
    """A move that waited longer than its budget for a free bot process
    loses the wait beyond that; one asked for far longer ago gets the least
    there is."""
    budgets = []

    class Recorded(thinking.IsmctsBot):
        def choose(self, state, deal_actions=None):
            budgets.append(self.budget)
            return legal_actions(state)[0]

    monkeypatch.setattr(thinking, "IsmctsBot", Recorded)
    state = a_state_in_play("georgian-club")
    thinking.practice_move(state, None, "practice", 30.0, time.time() - 40)
    assert 19 < budgets[-1] <= 20
    thinking.practice_move(state, None, "strong", 0.25, time.time() - 60)
    assert budgets[-1] == thinking.MINIMUM_BUDGET


def test_a_bot_out_of_time_still_plays_a_legal_move():
    state = a_state_in_play("japanese")
    thought = thinking.practice_move(state, None, "strong", 0.25, time.time() - 60)
    assert thought.action in legal_actions(state)
