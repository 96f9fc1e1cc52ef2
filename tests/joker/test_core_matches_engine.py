"""The compiled playouts (``joker.bots.core``) play, bid, deal and score as
the Python reference (``BitDeal``, ``bitsample``, ``results``) and the rules
engine do, step by step, on seeded and generated deals of every profile.
``python -m joker.bots.check_core`` runs the same checks for longer."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from joker import legal_actions, make_rules
from joker.bots.bits import play_code
from joker.bots.bitsample import DealSampler
from joker.bots.check_core import PROFILES, check_position, positions
from joker.bots.core import Playouts, random_deals
from joker.cards import DECK
from joker.state import PLAY


@pytest.mark.parametrize("name", PROFILES)
def test_core_matches_the_reference_on_seeded_deals(name):
    rules = make_rules(*PROFILES[name])
    rng = random.Random(name)
    steps = checked = 0
    # Every deal size of the schedule, from the start of a game.
    for _ in range(3):
        for state, deal_actions in positions(rules, rng, deals=9, skip=0):
            if not deal_actions:
                start = state
            steps += check_position(state, deal_actions, rng, start)
            checked += 1
    assert steps > 100
    assert checked > 10


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(sorted(PROFILES)),
    deck=st.permutations(DECK),
    seed=st.integers(0, 2**32),
    skip=st.integers(0, 23),
)
def test_core_matches_the_reference_on_generated_deals(name, deck, seed, skip):
    rules = make_rules(*PROFILES[name])
    rng = random.Random(seed)
    skip %= len(rules.schedule) or 24
    for state, deal_actions in positions(rules, rng, deals=1, deck=deck, skip=skip):
        check_position(state, deal_actions, rng)


@pytest.mark.parametrize("name", ["club", "japanese"])
def test_a_batch_of_playouts_is_reproducible_and_stops_on_its_clock(name):
    rules = make_rules(*PROFILES[name])
    state, deal_actions = next(
        (s, a)
        for s, a in positions(rules, random.Random(2), deals=2)
        if s.phase == PLAY
    )
    sampler = DealSampler(state, deal_actions)
    totals, deals = Playouts(sampler, 7).compare("none", [0], 300)
    assert deals == 300
    assert Playouts(sampler, 7).compare("none", [0], 300) == (totals, deals)
    # The clock is read every 10 deals: a timer past its deadline ends the
    # batch at the first reading.
    readings = []

    def timer():
        readings.append(1)
        return 1.0

    _, deals = Playouts(sampler, 7).compare(
        "none", [0], 300, timer=timer, deadline=0.5, check_every=10
    )
    assert (deals, len(readings)) == (10, 1)


def a_choice_of_cards(rules, seed):
    """A position of card play with at least three distinct cards to choose
    from, its sampler and the candidates' play codes."""
    for state, deal_actions in positions(rules, random.Random(seed), deals=3):
        if state.phase != PLAY:
            continue
        sampler = DealSampler(state, deal_actions)
        codes = sorted({play_code(a) for a in legal_actions(state)})
        if len(codes) >= 3:
            return sampler, codes
    raise AssertionError("no position with three cards to choose from")


@pytest.mark.parametrize("name", ["club", "japanese"])
def test_a_search_walks_each_deal_as_told_and_stops_on_its_clock(name):
    sampler, codes = a_choice_of_cards(make_rules(*PROFILES[name]), 4)
    visits, totals, deals = Playouts(sampler, 7).search(codes, 50, walks=3)
    # Every walk passes exactly one of the root's children.
    assert (deals, sum(visits)) == (50, 150)
    assert min(visits) >= 1
    assert Playouts(sampler, 7).search(codes, 50, walks=3) == (visits, totals, deals)
    readings = []

    def timer():
        readings.append(1)
        return 1.0

    _, _, deals = Playouts(sampler, 7).search(
        codes, 300, timer=timer, deadline=0.5, check_every=10
    )
    assert (deals, len(readings)) == (10, 1)


@pytest.mark.parametrize("name", ["club", "japanese"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_search_walks_most_the_play_that_does_best(name, seed):
    """The upper confidence bound spends the walks on the candidate whose
    results are best: after many walks the most walked candidate's mean is
    the best mean, within a small share of the results' range."""
    sampler, codes = a_choice_of_cards(make_rules(*PROFILES[name]), seed)
    visits, totals, _ = Playouts(sampler, 11).search(codes, 1500, walks=4)
    means = [t / v for t, v in zip(totals, visits, strict=True)]
    most = max(range(len(codes)), key=visits.__getitem__)
    spread = max(means) - min(means)
    assert means[most] >= max(means) - 0.05 * spread
    # And it does not walk every candidate alike.
    assert visits[most] > 2 * sum(visits) / len(codes)


def test_bad_batches_are_refused():
    rules = make_rules(*PROFILES["club"])
    state, deal_actions = next(
        (s, a)
        for s, a in positions(rules, random.Random(3), deals=1)
        if s.phase == PLAY
    )
    playouts = Playouts(DealSampler(state, deal_actions), 1)
    with pytest.raises(ValueError, match="candidates"):
        playouts.compare("none", [], 10)
    with pytest.raises(ValueError, match="check_every"):
        playouts.compare("none", [0], 10, check_every=0)
    with pytest.raises(KeyError):
        playouts.compare("cards", [0], 10)
    with pytest.raises(ValueError, match="candidates"):
        playouts.search([], 10)
    with pytest.raises(ValueError, match="walks"):
        playouts.search([0], 10, walks=0)


@pytest.mark.parametrize("name", PROFILES)
def test_random_whole_deals_count_every_decision(name):
    rules = make_rules(*PROFILES[name])
    deals, decisions = random_deals(rules, 48, 5)
    # Every card of every deal is a decision, and so is every bid.
    cards = sum(rules.cards_in_deal(i % (len(rules.schedule) or 1)) for i in range(48))
    plays = cards * rules.players + (0 if rules.is_japanese else 48 * 4)
    named = sum(rules.trump_is_named(i % (len(rules.schedule) or 1)) for i in range(48))
    assert (deals, decisions) == (48, plays + named)
