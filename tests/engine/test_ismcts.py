"""The ISMCTS practice bot: legal moves only, only what its seat may see,
and never more thinking time than its level allows."""

from __future__ import annotations

import random

import pytest

from games.engine import legal_actions, make_rules
from games.engine.bots import LEVELS, IsmctsBot, play_game
from tests.engine.test_bots import (
    PROFILE_IDS,
    PROFILES,
    autopilot_choice,
    hidden_variant,
    walk,
)

SEEDED_GAMES = 200


class Checked:
    """Wraps a bot: every move it makes must be legal."""

    def __init__(self, bot):
        self.bot = bot
        self.moves = 0

    def choose(self, state, deal_actions):
        action = self.bot.choose(state, deal_actions)
        assert action in legal_actions(state)
        self.moves += 1
        return action


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
def test_ismcts_plays_legally_in_seeded_games(profile, options):
    """200 seeded games (their first deals; the bot's seat and the dealer
    rotating), a tiny search per move."""
    rules = make_rules(profile, options)
    deals = 3 if rules.is_japanese else 6
    moves = 0
    for seed in range(SEEDED_GAMES):
        players = rules.players
        bots = [None] * players
        bot = Checked(IsmctsBot(budget=1.0, max_iterations=2, rng=random.Random(seed)))
        bots[seed % players] = bot
        play_game(rules, bots, random.Random(seed), seed // players % players, deals)
        moves += bot.moves
    assert moves > SEEDED_GAMES


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
def test_ismcts_plays_whole_games_legally_at_every_seat(profile, options):
    rules = make_rules(profile, options)
    bots = [
        Checked(IsmctsBot(budget=1.0, max_iterations=2, rng=random.Random(s)))
        for s in range(rules.players)
    ]
    game = play_game(rules, bots, random.Random(7))
    assert game.state.is_over


@pytest.mark.parametrize(
    ("profile", "options", "deals"),
    [(*PROFILES[1], 2), (*PROFILES[3], 9), (*PROFILES[6], 1)],
    ids=[PROFILE_IDS[1], PROFILE_IDS[3], PROFILE_IDS[6]],
)
def test_ismcts_never_depends_on_hidden_cards(profile, options, deals):
    """The same move when every card the seat cannot see is dealt again."""
    rules = make_rules(profile, options)
    rng = random.Random(5)
    checked = 0
    for state, deal_actions, _ in walk(rules, autopilot_choice, 4, max_deals=deals):
        if checked % 3 == 0:
            variant = hidden_variant(state, deal_actions, rng)
            for history in (deal_actions, None):
                real, other = (
                    IsmctsBot(budget=60, max_iterations=6, rng=random.Random(checked))
                    for _ in range(2)
                )
                assert real.choose(state, history) == other.choose(variant, history)
        checked += 1
    assert checked > 30


@pytest.mark.parametrize(("profile", "options"), [PROFILES[1], PROFILES[6]])
def test_ismcts_keeps_to_its_budget_and_records_it(profile, options):
    rules = make_rules(profile, options)
    budget = 0.03
    bot = IsmctsBot(budget=budget, rng=random.Random(1))
    bots = [bot] + [None] * (rules.players - 1)
    play_game(rules, bots, random.Random(3), max_deals=1 if rules.is_japanese else 2)
    assert len(bot.thinking) == len(bot.iterations) > 10
    assert max(bot.thinking) <= budget
    # It does think when it has a choice: many iterations on some moves.
    assert max(bot.iterations) > 10


def test_levels_are_budgets():
    assert list(LEVELS) == ["easy", "normal", "strong"]
    assert LEVELS["easy"] < LEVELS["normal"] < LEVELS["strong"]
    assert IsmctsBot("strong").budget == LEVELS["strong"]
    with pytest.raises(ValueError):
        IsmctsBot("grandmaster")
