"""The ISMCTS practice bot: legal moves only, only what its seat may see,
and never more thinking time than its level allows."""

from __future__ import annotations

import itertools
import random

import pytest

from joker import apply, legal_actions, make_rules, new_game
from joker.bots import LEVELS, IsmctsBot, autopilot_action, play_game
from joker.bots.bits import play_code
from joker.bots.bitsample import DealSampler
from joker.bots.check_core import positions
from joker.bots.core import Playouts
from joker.bots.ismcts import SearchOptions, _distinct_plays
from joker.bots.results import Premiums
from joker.shuffle import deal_cards
from joker.state import PLAY
from tests.joker.notation import mid_deal, token
from tests.joker.test_bots import (
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
@pytest.mark.slow
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
    # A clock that moves on a tenth of a millisecond at every reading, so
    # that the bot's time is the same on a busy machine as on a quiet one.
    readings = itertools.count()
    bot = IsmctsBot(
        budget=budget, rng=random.Random(1), timer=lambda: next(readings) * 1e-4
    )
    bots = [bot] + [None] * (rules.players - 1)
    play_game(rules, bots, random.Random(3), max_deals=1 if rules.is_japanese else 2)
    assert len(bot.thinking) == len(bot.iterations) > 10
    assert max(bot.thinking) <= budget
    # It does think when it has a choice: many iterations on some moves.
    assert max(bot.iterations) > 10


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
def test_trumps_and_bids_searched_by_the_tree_are_legal(profile, options):
    rules = make_rules(profile, options)
    search = SearchOptions(bid_search="tree", trump_search="tree")
    bots = [
        Checked(
            IsmctsBot(
                budget=1.0, max_iterations=3, rng=random.Random(s), options=search
            )
        )
        for s in range(rules.players)
    ]
    game = play_game(rules, bots, random.Random(11), max_deals=4)
    assert game.state.deals


def test_a_bid_searched_by_the_tree_walks_every_bid():
    """The root's children are the allowed bids, each walked; every walk
    of every deal passes one of them."""
    rules = make_rules("georgian-club", {})
    state = new_game(rules, first_dealer=0)
    state = apply(state, deal_cards(state, random.Random(5)))
    while state.phase != "bid":
        state = apply(state, autopilot_action(state))
    bids = [action.bid for action in legal_actions(state)]
    playouts = Playouts(DealSampler(state, []), 3)
    visits, totals, deals = playouts.search(bids, 40, walks=4, kind="bid")
    assert deals == 40
    assert sum(visits) == 160
    assert all(visits)


def test_playouts_are_the_deals_times_the_candidates():
    """Every sampled deal is played out once per candidate: at a bid, once
    per allowed bid."""
    rules = make_rules("georgian-club", {})
    rng = random.Random(5)
    state = new_game(rules, first_dealer=0)
    state = apply(state, deal_cards(state, rng))
    while state.phase != "bid":
        state = apply(state, autopilot_action(state))
    bot = IsmctsBot(budget=60, max_iterations=7, rng=random.Random(1))
    bot.choose(state, [])
    assert bot.iterations == [7]
    assert bot.playouts == [7 * len(legal_actions(state))]


@pytest.mark.parametrize("profile", ["georgian-club", "japanese"])
def test_levels_are_budgets_by_game(profile):
    assert list(LEVELS) == ["easy", "normal", "strong"]
    rules = make_rules(profile, {})
    game = "japanese" if rules.is_japanese else "classic"
    assert LEVELS["easy"][game] < LEVELS["normal"][game] < LEVELS["strong"][game]
    state = new_game(rules, first_dealer=0)
    assert IsmctsBot("strong").budget_for(state) == LEVELS["strong"][game]
    # A budget given outright is the same in every game.
    assert IsmctsBot(budget=0.03).budget_for(state) == 0.03
    with pytest.raises(ValueError):
        IsmctsBot("grandmaster")


# Moves that do the same are searched once


def test_touching_cards_of_a_suit_are_one_move():
    # Seat 0 leads with 9H TH KH: the ten plays as the nine (nothing between
    # them), the king does not (JH and QH are out there).
    state = mid_deal(
        "georgian-club",
        ["9H TH KH 7S", "JH QH 8S 9S", "AH 6H TS JS", "7H 8H QS KS"],
        "D",
        bids=[1, 1, 1, 0],
    )
    kept = {token(a) for a in _distinct_plays(state, legal_actions(state), set())}
    assert kept == {"9H", "KH", "7S"}


def test_cards_played_earlier_join_the_cards_around_them():
    state = mid_deal(
        "georgian-club",
        ["9H KH 7S", "8S 9S TS", "6H JS QS", "7H 8H KS"],
        "D",
        bids=[1, 1, 1, 0],
    )
    # With TH, JH and QH gone, the nine and the king of hearts play alike.
    gone = {"TH", "JH", "QH"}
    kept = {token(a) for a in _distinct_plays(state, legal_actions(state), gone)}
    assert kept == {"9H", "7S"}
    # A card of the current trick is not gone: it is still in play now.
    assert len(_distinct_plays(state, legal_actions(state), gone - {"JH"})) == 3


def test_two_jokers_in_hand_are_searched_as_one():
    state = mid_deal(
        "georgian-club",
        ["X1 X2 7S", "8S 9S TS", "6H JS QS", "7H 8H KS"],
        "D",
        bids=[1, 1, 1, 0],
    )
    kept = _distinct_plays(state, legal_actions(state), set())
    assert {a.card for a in kept} == {"X1", "7S"}
    assert len(kept) == 1 + len([a for a in legal_actions(state) if a.card == "X1"])
    # In live-games a joker's nominal six is its own card.
    live = mid_deal(
        "live-games",
        ["X1 X2 7S", "8S 9S TS", "6H JS QS", "7H 8H KS"],
        "D",
        bids=[1, 1, 1, 0],
    )
    nominal = [
        token(a)
        for a in _distinct_plays(live, legal_actions(live), set())
        if a.mode == "nominal"
    ]
    assert sorted(nominal) == ["X1:nominal", "X2:nominal"]


# Stopping once the best move is clear


def _japanese_play_position():
    rules = make_rules("japanese")
    return next(
        (s, a)
        for s, a in positions(rules, random.Random(4), deals=1, skip=0)
        if s.phase == PLAY and len(legal_actions(s)) > 2
    )


def test_moves_that_do_the_same_stop_the_search_at_the_first_check():
    """Two identical candidates never differ: the search stops as soon as
    it may (DECIDED_AFTER deals), unless told to use its whole batch."""
    state, deal_actions = _japanese_play_position()
    code = play_code(legal_actions(state)[0])
    playouts = Playouts(DealSampler(state, deal_actions), 3)
    assert playouts.compare("card", [code, code], 500, stop_early=True)[1] == 8
    assert playouts.compare("card", [code, code], 500)[1] == 500


# What a deal does to the pulka's premiums


def test_the_premium_values_of_a_pulkas_last_deal_are_the_scoresheets():
    """On the last deal of a pulka nothing is left to chance: the expected
    premiums the bot scores a deal by are the bonus and deductions the
    engine then books."""
    rules = make_rules("georgian-club", {})
    last = rules.pulka_bounds(1).stop - 1
    seen_deduction = False
    for seed in range(40):
        rng = random.Random(seed)
        state = new_game(rules, seed % 4)
        while state.deal_index < last or state.phase in ("deal", "trump", "bid"):
            if state.phase == "deal":
                state = apply(state, deal_cards(state, rng))
            else:
                state = apply(state, autopilot_action(state))
        premiums = Premiums(state)
        while state.deal_index == last:
            state = apply(state, autopilot_action(state))
        deal, pulka = state.deals[last], state.pulkas[1]
        expected = [
            deal.scores[s] + pulka.bonus[s] - pulka.deduction[s] for s in range(4)
        ]
        assert premiums(deal.bids, deal.tricks) == expected
        seen_deduction |= any(pulka.deduction)
    assert seen_deduction
