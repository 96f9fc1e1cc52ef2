"""The bots: the autopilot's automatic moves and the Monte Carlo bot.

Both must always play legally, only use what their seat may see (RULES.md
section 4), and the autopilot must be deterministic (RULES.md 3.5 and 4).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from joker import Deal, apply, legal_actions, make_rules, new_game
from joker.actions import PlayCard
from joker.bots import MonteCarloBot, autopilot_action, play_game
from joker.bots.autopilot import (
    choose_bid,
    choose_trump,
    estimate_tricks,
    winning_cards,
)
from joker.bots.montecarlo import Knowledge
from joker.bots.rollout import DealSim
from joker.cards import DECK, NO_TRUMP
from joker.record import replay
from joker.shuffle import deal_cards
from joker.state import DEAL, OVER, PLAY, TRUMP
from joker.tricks import trick_winner

REPO_ROOT = Path(__file__).resolve().parents[2]

PROFILES = [
    ("georgian-club", {}),
    ("georgian-club", {"schedule": "nines"}),
    ("georgian-club", {"pairs": True, "hisht_penalty": "alternating"}),
    ("georgian-tvaladze", {}),
    ("live-games", {}),
    ("live-games", {"scoring": "home-missing"}),
    ("japanese", {}),
]
PROFILE_IDS = [
    f"{p}-{'-'.join(map(str, o.values())) or 'default'}" for p, o in PROFILES
]


def walk(rules, choose, seed, first_dealer=0, max_deals=None):
    """Play a game with ``choose(state, deal_actions)`` for every seat and
    yield ``(state, deal_actions, action)`` before each move."""
    rng = random.Random(seed)
    state = new_game(rules, first_dealer)
    deals = 0
    while state.phase != OVER:
        if state.phase == DEAL:
            if max_deals is not None and deals == max_deals:
                return
            deals += 1
            state = apply(state, deal_cards(state, rng))
            actions = []
            continue
        action = choose(state, actions)
        yield state, list(actions), action
        state = apply(state, action)
        actions.append(action)


def hidden_variant(state, deal_actions, rng):
    """The same state for the seat to move, with every card it cannot see
    dealt again at random: other hands, face-down cards, the undealt rest
    of the deck, and the unseen part of the trump namer's hand."""
    seat = state.turn
    naming = state.phase == TRUMP
    hands = [list(hand) for hand in state.hands]
    columns = [list(own) for own in state.columns]
    played = {a.card for a in deal_actions if isinstance(a, PlayCard)}
    own_seen = hands[seat][:3] if naming else hands[seat]
    seen = set(own_seen) | played | {play.card for play in state.trick}
    keep_turned = None
    if state.turned is not None:
        seen.add(state.turned)
        if state.turned in hands[state.dealer] and state.dealer != seat:
            keep_turned = state.turned  # public: the dealer holds it
    if columns and not naming:
        seen |= {up for own in columns for _, up in own}
    pool = [card for card in DECK if card not in seen]
    rng.shuffle(pool)

    def draw(count):
        taken = pool[:count]
        del pool[:count]
        return taken

    for s in range(state.players):
        if s == seat:
            hands[s] = own_seen + draw(len(hands[s]) - len(own_seen))
        else:
            size = len(hands[s]) - (keep_turned is not None and s == state.dealer)
            hands[s] = draw(size) + ([keep_turned] if size < len(hands[s]) else [])
    for s, own in enumerate(columns):
        if naming:
            columns[s] = [tuple(draw(2)) for _ in own]
        else:
            columns[s] = [(draw(1)[0], up) for _, up in own]
    variant = replace(
        state,
        hands=tuple(map(tuple, hands)),
        columns=tuple(tuple(own) for own in columns),
    )
    return variant


def autopilot_choice(state, deal_actions):
    return autopilot_action(state)


# -- the autopilot -----------------------------------------------------------


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
def test_autopilot_plays_whole_games_legally_and_deterministically(profile, options):
    rules = make_rules(profile, options)
    for seed in range(2):
        moves = 0
        for state, _, action in walk(rules, autopilot_choice, seed, seed):
            assert action in legal_actions(state)
            assert autopilot_action(replace(state)) == action
            moves += 1
        assert moves > 0


def test_autopilot_games_do_not_depend_on_hash_seeds():
    script = (
        "import json, random\n"
        "from joker import make_rules\n"
        "from joker.bots import play_game\n"
        "out = []\n"
        "for p in ('georgian-club', 'live-games', 'japanese'):\n"
        "    r = make_rules(p)\n"
        "    g = play_game(r, [None] * r.players, random.Random(7))\n"
        "    out.append(g.record())\n"
        "print(json.dumps(out))\n"
    )
    outputs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        proc = subprocess.run(
            [sys.executable, "-c", script],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
def test_autopilot_never_depends_on_hidden_cards(profile, options):
    rules = make_rules(profile, options)
    rng = random.Random(3)
    checked = 0
    for state, deal_actions, action in walk(rules, autopilot_choice, 5):
        for _ in range(2):
            variant = hidden_variant(state, deal_actions, rng)
            assert autopilot_action(variant) == action
        checked += 1
    assert checked > 0


def test_autopilot_names_the_longest_visible_suit():
    assert choose_trump(["AS", "7H", "8H"]) == "H"
    assert choose_trump(["AS", "7H", "X1"]) == "S"  # tie: the higher cards
    assert choose_trump(["7S", "7H", "X1"]) == "S"  # tie: the suit order
    assert choose_trump(["X1", "X2", "9D"]) == "D"


def test_autopilot_bids_its_likely_winners_and_avoids_the_forbidden_bid():
    hand = ["AS", "KS", "X1", "AH", "7D", "8D", "9C", "TC", "JC"]
    assert estimate_tricks(hand, "S", 9) == pytest.approx(3.5)
    assert choose_bid(hand, "S", 9, range(10)) == 3
    assert choose_bid(hand, "S", 9, [0, 1, 2, 4, 5, 6, 7, 8, 9]) == 4
    assert choose_bid(["7D"], "H", 1, [0, 1]) == 0
    assert choose_bid(["AH"], "H", 1, [0, 1]) == 1


def test_autopilot_takes_cheaply_when_it_needs_tricks_and_ducks_otherwise():
    rules = make_rules("georgian-club")
    state = new_game(rules, 3)
    state = replace(
        state,
        phase=PLAY,
        turn=1,
        hands=(("QD",), ("KH", "AH", "7H", "X2"), ("9C",), ("8S",)),
        trump="S",
        bids=(1, 1, 0, 0),
        tricks=(0, 0, 0, 0),
        trick=(PlayCard(0, "QH"),),
        leader=0,
    )
    assert autopilot_action(state) == PlayCard(1, "KH")
    ducking = replace(state, bids=(1, 0, 0, 0))
    assert autopilot_action(ducking) == PlayCard(1, "7H")
    no_hearts = replace(state, hands=(("QD",), ("7C", "X2"), ("9C",), ("8S",)))
    assert autopilot_action(no_hearts) == PlayCard(1, "X2", "high")
    leading = replace(state, trick=(), turn=1, leader=1)
    assert autopilot_action(leading) == PlayCard(1, "AH")


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
def test_winning_cards_agrees_with_the_trick_rules(profile, options):
    rules = make_rules(profile, options)
    rng = random.Random(13)
    checked = 0
    for state, _, _ in walk(rules, lambda s, a: rng.choice(legal_actions(s)), 13):
        if state.phase != PLAY or not state.trick:
            continue
        seat = state.turn
        cards = [card for card in DECK if card[0] != "X"]
        winners = winning_cards(cards, state.trick, state.trump)
        for card in cards:
            wins = trick_winner(state.trick + (PlayCard(seat, card),), state.trump)
            assert (card in winners) == (wins == seat), (state.trick, card)
        checked += 1
    assert checked > 50


# -- the rollout simulator ----------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "options"),
    [PROFILES[0], PROFILES[4], PROFILES[6]],
    ids=[PROFILE_IDS[0], PROFILE_IDS[4], PROFILE_IDS[6]],
)
def test_rollouts_play_exactly_like_the_engine(profile, options):
    rules = make_rules(profile, options)
    compared = 0
    for state, _, _ in walk(rules, autopilot_choice, 11, max_deals=6):
        if state.phase != PLAY or compared > 60:
            continue
        sim = DealSim.from_state(state)
        assert sorted(map(repr, sim.legal())) == sorted(map(repr, legal_actions(state)))
        sim.play_out()
        end = state
        while end.phase == PLAY:
            end = apply(end, autopilot_action(end))
        # The deal is scored: its trick counts are the last result's.
        assert tuple(sim.tricks) == end.deals[-1].tricks
        compared += 1
    assert compared > 20


# -- the Monte Carlo bot ------------------------------------------------------


def mc_choice(samples, seed):
    bot = MonteCarloBot(samples=samples, rng=random.Random(seed))
    return bot.choose


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
@pytest.mark.slow
def test_monte_carlo_plays_legally(profile, options):
    rules = make_rules(profile, options)
    moves = 0
    deals = 2 if rules.is_japanese else 10
    for state, _, action in walk(rules, mc_choice(3, 1), 2, 1, max_deals=deals):
        assert action in legal_actions(state)
        moves += 1
    assert moves > 0


@pytest.mark.parametrize(
    ("profile", "options", "deals"),
    [(*PROFILES[1], 2), (*PROFILES[3], 9), (*PROFILES[6], 1)],
    ids=[PROFILE_IDS[1], PROFILE_IDS[3], PROFILE_IDS[6]],
)
def test_monte_carlo_never_depends_on_hidden_cards(profile, options, deals):
    """Tvaladze reaches deal 9, where the turned card stays with the dealer."""
    rules = make_rules(profile, options)
    rng = random.Random(9)
    checked = 0
    for state, deal_actions, _ in walk(rules, autopilot_choice, 4, max_deals=deals):
        if checked % 3 == 0:
            variant = hidden_variant(state, deal_actions, rng)
            for history in (deal_actions, None):
                real = MonteCarloBot(samples=3, rng=random.Random(checked))
                other = MonteCarloBot(samples=3, rng=random.Random(checked))
                assert real.choose(state, history) == other.choose(variant, history)
        checked += 1
    assert checked > 30


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
def test_sampled_deals_agree_with_what_the_seat_knows(profile, options):
    rules = make_rules(profile, options)
    rng = random.Random(5)
    checked = 0
    for state, deal_actions, _ in walk(rules, autopilot_choice, 6, max_deals=3):
        seat = state.turn
        knowledge = Knowledge(state, deal_actions)
        played = [a for a in deal_actions if isinstance(a, PlayCard)]
        for _ in range(2):
            deal = knowledge.sample(rng)
            assert [len(h) for h in deal.hands] == [len(h) for h in state.hands]
            assert [len(c) for c in deal.columns] == [len(c) for c in state.columns]
            shown = 3 if state.phase == TRUMP else len(state.hands[seat])
            assert deal.hands[seat][:shown] == state.hands[seat][:shown]
            if state.phase != TRUMP:
                for real, sampled in zip(state.columns, deal.columns, strict=True):
                    assert [up for _, up in real] == [up for _, up in sampled]
            cards = [c for h in deal.hands for c in h]
            cards += [c for own in deal.columns for col in own for c in col]
            cards += [play.card for play in played]
            assert len(cards) == len(set(cards))
            if rules.is_japanese:
                assert Counter(cards) == Counter(DECK)
            elif state.turned is not None and state.cards_each < 9:
                assert state.turned not in cards
            # Seats that showed out of a suit are never dealt it.
            for index in range(0, len(played) - len(state.trick), state.players):
                trick = played[index : index + state.players]
                lead = trick[0]
                suit = lead.suit if lead.mode in ("take", "give") else lead.card[1]
                if lead.mode == "nominal" or rules.is_japanese:
                    continue
                for play in trick[1:]:
                    if play.mode is None and play.card[1] != suit:
                        assert all(
                            c[1] != suit or c[0] == "X" for c in deal.hands[play.seat]
                        )
        checked += 1
    assert checked > 10


def test_monte_carlo_is_reproducible_with_its_seed():
    rules = make_rules("georgian-club", {"schedule": "nines"})
    records = []
    for _ in range(2):
        bot = MonteCarloBot(samples=4, rng=random.Random(21))
        game = play_game(rules, [bot, None, None, None], random.Random(8), max_deals=2)
        records.append(json.dumps(game.record()))
    assert records[0] == records[1]


@pytest.mark.parametrize(
    ("profile", "options", "seed"),
    [("georgian-club", {}, 1), ("japanese", {"target": 11}, 2)],
)
def test_a_bot_game_record_replays_to_the_same_result(profile, options, seed):
    rules = make_rules(profile, options)
    bots = [None] * rules.players
    bots[1] = MonteCarloBot(samples=2, rng=random.Random(seed))
    game = play_game(rules, bots, random.Random(seed), first_dealer=1)
    assert game.state.phase == OVER
    replayed = replay(json.loads(json.dumps(game.record())))
    assert replayed.state.totals == game.state.totals
    assert replayed.state.places == game.state.places
    assert replayed.history == game.history


def test_monte_carlo_sees_the_sure_trick():
    """With one card each left, the bot bids what its cards are worth."""
    rules = make_rules("georgian-club")
    state = apply(
        new_game(rules, 3),
        # Deal 0 is one card each; the turned 7S makes spades trump.
        Deal((("AS",), ("7H",), ("8H",), ("9H",)), "7S"),
    )
    bot = MonteCarloBot(samples=8, rng=random.Random(0))
    assert bot.choose(state) == legal_actions(state)[1]  # bid 1
    assert state.trump != NO_TRUMP
