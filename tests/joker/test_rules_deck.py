"""RULES.md 1 and 2.1: the deck, card codes, shuffling, schedule and dealers."""

from __future__ import annotations

import random

import pytest

from joker import BadRecord, Deal, apply, make_rules, new_game
from joker.cards import (
    DECK,
    JOKERS,
    is_card,
    is_joker,
    parse_cards,
    rank_of,
    suit_of,
)
from joker.shuffle import deal_cards, draw_first_dealer
from tests.joker.notation import ALL_PROFILES, CLASSIC, FOUR_PLAYER, cards, start_at

# --- 1. Deck ---------------------------------------------------------------


def test_the_deck_has_36_distinct_cards():
    assert len(DECK) == 36
    assert len(set(DECK)) == 36


def test_every_suit_has_seven_to_ace():
    for suit in "SHDC":
        for rank in "789TJQKA":
            assert rank + suit in DECK


def test_only_hearts_and_diamonds_have_a_six():
    assert "6H" in DECK and "6D" in DECK
    assert "6S" not in DECK and "6C" not in DECK
    assert not is_card("6S") and not is_card("6C")


def test_two_jokers_x1_and_x2():
    assert JOKERS == ("X1", "X2")
    assert set(DECK) - {r + s for r in "6789TJQKA" for s in "SHDC"} == {"X1", "X2"}
    assert is_joker("X1") and is_joker("X2")
    assert not any(is_joker(card) for card in DECK if card not in JOKERS)


def test_suit_counts():
    by_suit = {
        s: [c for c in DECK if not is_joker(c) and suit_of(c) == s] for s in "SHDC"
    }
    assert {s: len(v) for s, v in by_suit.items()} == {"S": 8, "H": 9, "D": 9, "C": 8}


def test_rank_order_low_to_high():
    ordered = sorted(cards("AH 6H TH 9H JH 7H KH 8H QH"), key=rank_of)
    assert ordered == list(cards("6H 7H 8H 9H TH JH QH KH AH"))
    assert rank_of("TS") > rank_of("9S")
    assert rank_of("AS") > rank_of("KS")


@pytest.mark.parametrize("code", ["6S", "6C", "10H", "1H", "AX", "X3", "X0", "", "ah"])
def test_unknown_card_codes(code):
    assert not is_card(code)


def test_card_codes_parse():
    assert parse_cards("AS KH 7D X1 TH 6D X2") == [
        "AS",
        "KH",
        "7D",
        "X1",
        "TH",
        "6D",
        "X2",
    ]
    with pytest.raises(ValueError):
        parse_cards("AS 6S")


# --- Shuffling -------------------------------------------------------------


def _all_cards(deal: Deal) -> list[str]:
    out = [card for hand in deal.hands for card in hand]
    out += [card for own in deal.columns for col in own for card in col]
    return out


@pytest.mark.parametrize("profile", FOUR_PLAYER)
@pytest.mark.parametrize("deal_index", range(24))
def test_a_shuffled_four_player_deal_has_the_right_shape(profile, deal_index):
    state = start_at(profile, deal_index)
    n = CLASSIC[deal_index]
    deal = deal_cards(state, random.Random(deal_index))
    assert [len(hand) for hand in deal.hands] == [n] * 4
    dealt = _all_cards(deal)
    assert len(set(dealt)) == 4 * n and set(dealt) <= set(DECK)
    if n < 9:
        # The next card is turned up; it is in no hand.
        assert deal.turned in DECK and deal.turned not in dealt
    elif profile == "georgian-tvaladze":
        # The dealer's last card is turned up and stays in the hand.
        assert deal.turned == deal.hands[state.dealer][-1]
    else:
        assert deal.turned is None
    # The shuffled deal is a valid deal for the engine.
    apply(state, deal)


def test_a_shuffled_japanese_deal_uses_the_whole_deck():
    state = new_game(make_rules("japanese"), 0)
    deal = deal_cards(state, random.Random(5))
    assert [len(hand) for hand in deal.hands] == [8, 8]
    assert [len(own) for own in deal.columns] == [5, 5]
    assert all(len(col) == 2 for own in deal.columns for col in own)
    assert sorted(_all_cards(deal)) == sorted(DECK)
    assert deal.turned is None
    apply(state, deal)


def test_a_nines_club_deal_deals_all_36_cards():
    state = new_game(make_rules("georgian-club", {"schedule": "nines"}), 0)
    deal = deal_cards(state, random.Random(1))
    assert sorted(_all_cards(deal)) == sorted(DECK)
    assert deal.turned is None


def test_server_shuffles_do_not_follow_the_random_module_seed():
    state = new_game(make_rules("japanese"), 0)
    random.seed(12345)
    first = deal_cards(state)
    random.seed(12345)
    second = deal_cards(state)
    assert first != second


def test_server_shuffles_draw_from_the_operating_system(monkeypatch):
    import os

    calls = []
    real = os.urandom

    def counting(n):
        calls.append(n)
        return real(n)

    monkeypatch.setattr(random, "_urandom", counting)
    deal_cards(new_game(make_rules("georgian-club"), 0))
    assert calls, "the shuffle used no secure randomness"


def test_a_seeded_generator_reproduces_a_deal():
    state = new_game(make_rules("live-games"), 2)
    assert deal_cards(state, random.Random(9)) == deal_cards(state, random.Random(9))


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_first_dealer_is_a_seat(profile):
    rules = make_rules(profile)
    rng = random.Random(0)
    drawn = {draw_first_dealer(rules, rng) for _ in range(200)}
    assert drawn == set(range(rules.players))
    assert 0 <= draw_first_dealer(rules) < rules.players


# --- 2.1 Schedule ----------------------------------------------------------


@pytest.mark.parametrize("profile", FOUR_PLAYER)
def test_classic_schedule(profile):
    rules = make_rules(profile)
    assert [rules.cards_in_deal(i) for i in range(24)] == list(CLASSIC)
    assert rules.schedule == CLASSIC
    assert rules.pulka_sizes == (8, 4, 8, 4)
    pulkas = [rules.pulka_of(i) for i in range(24)]
    assert pulkas == [0] * 8 + [1] * 4 + [2] * 8 + [3] * 4


def test_club_nines_schedule():
    rules = make_rules("georgian-club", {"schedule": "nines"})
    assert rules.schedule == (9,) * 16
    assert rules.pulka_sizes == (4, 4, 4, 4)
    assert [rules.pulka_of(i) for i in range(16)] == [
        p for p in range(4) for _ in range(4)
    ]


def test_club_default_schedule_is_classic():
    assert make_rules("georgian-club").schedule == CLASSIC


@pytest.mark.parametrize("profile", ["georgian-tvaladze", "live-games", "japanese"])
def test_only_the_club_has_the_nines_option(profile):
    with pytest.raises(BadRecord):
        make_rules(profile, {"schedule": "nines"})


@pytest.mark.parametrize("profile", FOUR_PLAYER)
@pytest.mark.parametrize("first_dealer", range(4))
def test_the_dealer_moves_left_and_the_left_player_bids_and_leads(
    profile, first_dealer
):
    for deal_index in (0, 3, 8, 13, 23):
        state = start_at(profile, deal_index, first_dealer=first_dealer)
        dealer = (first_dealer + deal_index) % 4
        assert state.dealer == dealer
        state = apply(state, deal_cards(state, random.Random(deal_index)))
        left = (dealer + 1) % 4
        # The player left of the dealer acts first: names trump or bids.
        assert state.turn == left
        assert state.leader == left


def test_japanese_deals_18_cards_each_and_18_tricks():
    rules = make_rules("japanese")
    assert rules.players == 2
    assert all(rules.cards_in_deal(i) == 18 for i in range(10))


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_player_counts(profile):
    assert make_rules(profile).players == (2 if profile == "japanese" else 4)


def test_default_profile_options():
    club = make_rules("georgian-club")
    assert club.options == {
        "schedule": "classic",
        "hisht_penalty": "200",
        "deductions": True,
        "pairs": False,
    }
    assert make_rules("live-games").options == {"scoring": "online"}
    assert make_rules("georgian-tvaladze").options == {}
    assert make_rules("japanese").options == {"target": 21}
