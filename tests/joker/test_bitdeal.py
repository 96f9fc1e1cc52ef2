"""The practice bot's playouts on bit masks (``BitDeal``) and its deal
sampler (``DealSampler``) play by the engine's rules and the autopilot's
policy, and deal only what the seat to move may not see."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from joker import apply, legal_actions, make_rules
from joker.actions import PlayCard
from joker.bots import autopilot_action
from joker.bots.autopilot import choose_bid as card_choose_bid
from joker.bots.autopilot import estimate_tricks as card_estimate
from joker.bots.bitdeal import BitDeal
from joker.bots.bits import card_of, mask_of, play_code, play_of, trump_index
from joker.bots.bitsample import (
    DealSampler,
    choose_bid,
    estimate_tricks,
)
from joker.bots.rollout import DealSim
from joker.cards import DECK, TRUMP_CHOICES
from joker.state import PLAY, TRUMP
from tests.joker.test_bots import PROFILE_IDS, PROFILES, autopilot_choice, walk


def cards_of(mask: int) -> set[str]:
    return {card_of(bit) for bit in range(38) if mask >> bit & 1}


def random_choice(seed):
    rng = random.Random(seed)

    def choose(state, deal_actions):
        return rng.choice(legal_actions(state))

    return choose


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
def test_bit_deals_play_exactly_like_the_engine(profile, options):
    """From every card-play state of random games: the same legal plays as
    the engine, the same autopilot move as the engine's autopilot, and the
    same tricks as ``apply`` after every random play to the deal's end."""
    rules = make_rules(profile, options)
    rng = random.Random(8)
    compared = 0
    for state, _, _ in walk(rules, random_choice(3), 3, max_deals=10):
        if state.phase != PLAY:
            continue
        deal = BitDeal.from_state(state)
        now = state
        while now.phase == PLAY:
            legal = legal_actions(now)
            assert sorted(deal.legal()) == sorted(map(play_code, legal))
            assert deal.turn == now.turn
            assert play_of(now.turn, deal.autopilot_move()) == autopilot_action(now)
            action = rng.choice(legal)
            assert play_of(now.turn, play_code(action)) == action
            deal.play(play_code(action))
            after = apply(now, action)
            if after.phase == PLAY:
                assert deal.tricks == list(after.tricks)
                assert [cards_of(h) for h in deal.hands] == list(map(set, after.hands))
            else:
                assert tuple(deal.tricks) == after.deals[-1].tricks
            now = after
        assert deal.finished
        compared += 1
    assert compared > 20


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
def test_bit_playouts_end_as_the_reference_playouts(profile, options):
    rules = make_rules(profile, options)
    compared = 0
    for state, _, _ in walk(rules, autopilot_choice, 12, max_deals=8):
        if state.phase != PLAY:
            continue
        reference, deal = DealSim.from_state(state), BitDeal.from_state(state)
        copy = deal.copy()
        reference.play_out()
        deal.play_out()
        assert deal.tricks == reference.tricks
        assert copy.done == len(state.trick_winners)  # the copy is untouched
        compared += 1
    assert compared > 20


def test_the_hand_estimate_on_masks_is_the_autopilots():
    rng = random.Random(2)
    for _ in range(3000):
        cards = rng.randint(1, 9)
        hand = rng.sample(DECK, cards)
        trump = rng.choice(TRUMP_CHOICES)
        expected = card_estimate(hand, trump, cards)
        got = estimate_tricks(mask_of(hand), trump_index(trump), cards)
        assert got == pytest.approx(expected, abs=1e-9)
        forbidden = rng.randint(0, cards)
        allowed = [b for b in range(cards + 1) if b != forbidden]
        if abs(expected % 1 - 0.5) < 1e-9:
            continue  # a tie between two bids, up to the order of the sum
        assert choose_bid(
            mask_of(hand), trump_index(trump), cards, allowed
        ) == card_choose_bid(hand, trump, cards, allowed)


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
def test_sampled_bit_deals_agree_with_what_the_seat_knows(profile, options):
    rules = make_rules(profile, options)
    rng = random.Random(5)
    checked = 0
    for state, deal_actions, _ in walk(rules, autopilot_choice, 6, max_deals=4):
        seat = state.turn
        sampler = DealSampler(state, deal_actions)
        played = [a for a in deal_actions if isinstance(a, PlayCard)]
        earlier = played[: len(played) - len(state.trick)]
        for _ in range(3):
            deal = sampler.sample(rng)
            hands = [cards_of(mask) for mask in deal.hands]
            assert list(map(len, hands)) == [len(h) for h in state.hands]
            assert [len(c) for c in deal.columns] == [len(c) for c in state.columns]
            shown = 3 if state.phase == TRUMP else len(state.hands[seat])
            assert set(state.hands[seat][:shown]) <= hands[seat]
            if state.phase != TRUMP:
                for real, sampled in zip(state.columns, deal.columns, strict=True):
                    assert [up for _, up in real] == [card_of(u) for _, u in sampled]
            cards = [c for hand in hands for c in hand]
            cards += [card_of(b) for own in deal.columns for col in own for b in col]
            cards += [play.card for play in played]
            assert len(cards) == len(set(cards))
            if rules.is_japanese:
                assert Counter(cards) == Counter(DECK)
            elif state.turned is not None and state.cards_each < 9:
                assert state.turned not in cards
            checked += 1
            if not rules.is_japanese:
                assert_voids_kept(earlier, hands)
    assert checked > 10


def assert_voids_kept(plays, hands):
    """Seats that showed out of a suit in these finished tricks of a
    4-player deal hold none of it."""
    for index in range(0, len(plays), 4):
        trick = plays[index : index + 4]
        lead = trick[0]
        if lead.mode == "nominal":
            continue
        suit = lead.suit if lead.mode in ("take", "give") else lead.card[1]
        for play in trick[1:]:
            if play.mode is None and play.card[1] != suit:
                held = hands[play.seat] - {"X1", "X2"}
                assert not any(card[1] == suit for card in held)


def test_sampled_hands_fit_the_bids_made():
    """Seat 1 bid all 8 tricks: the deals the sampler prefers give it strong
    hands far more often than deals that ignore the bids."""
    from dataclasses import replace

    from joker import Bid, new_game
    from joker.shuffle import deal_cards

    rules = make_rules("georgian-club", {})
    deal_index = rules.schedule.index(8)
    # Seat 3 deals, so seat 0 bids first.
    state = replace(new_game(rules, (3 - deal_index) % 4), deal_index=deal_index)
    state = apply(state, deal_cards(state, random.Random(4)))
    actions = [Bid(0, 1), Bid(1, 8)]
    for action in actions:
        state = apply(state, action)
    assert state.turn == 2
    sampler = DealSampler(state, actions)
    trump = trump_index(state.trump)
    rng = random.Random(5)
    fitted = [sampler.sample(rng).hands[1] for _ in range(200)]
    plain = [sampler._sample(rng).hands[1] for _ in range(200)]
    assert (
        sum(estimate_tricks(hand, trump, 8) for hand in fitted) / 200
        > sum(estimate_tricks(hand, trump, 8) for hand in plain) / 200 + 0.5
    )
