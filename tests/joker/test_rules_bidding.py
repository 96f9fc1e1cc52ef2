"""RULES.md 2.2-2.3: fixing or naming trump, bidding, the dealer's restriction,
shetenva and tsaglejva."""

from __future__ import annotations

import random

import pytest

from joker import (
    BadDeal,
    Bid,
    IllegalAction,
    NameTrump,
    PlayCard,
    WrongAction,
    WrongSeat,
    apply,
)
from joker.shuffle import deal_cards
from joker.view import view
from tests.joker.notation import (
    CLASSIC,
    FOUR_PLAYER,
    deal_from,
    legal,
    play,
    start_at,
)

P4 = pytest.mark.parametrize("profile", FOUR_PLAYER)
NAMED = pytest.mark.parametrize("profile", ["georgian-club", "live-games"])

# A 9-card deal: every card of the deck, seat by seat.
NINE = (
    "AS KS QS JS TS 9S 8S 7S AH",
    "KH QH JH TH 9H 8H 7H 6H AD",
    "KD QD JD TD 9D 8D 7D 6D AC",
    "KC QC JC TC 9C 8C 7C X1 X2",
)


def bids(state, *values):
    """Each value is bid by the seat to move."""
    for value in values:
        state = apply(state, Bid(state.turn, value))
    return state


def one_card_deal(profile, first_dealer=0, turned="9S"):
    state = start_at(profile, 0, first_dealer=first_dealer)
    joker = "X2" if turned == "X1" else "X1"
    return apply(state, deal_from("AH", "7C", joker, "KD", turned=turned))


# --- 2.2 Trump from a turned card -------------------------------------------


@P4
@pytest.mark.parametrize(
    "turned, trump",
    [
        ("9S", "S"),
        ("6H", "H"),
        ("AD", "D"),
        ("8C", "C"),
        ("X1", "none"),
        ("X2", "none"),
    ],
)
def test_the_turned_card_fixes_trump_in_short_deals(profile, turned, trump):
    state = one_card_deal(profile, turned=turned)
    assert state.trump == trump
    assert state.turned == turned
    assert state.phase == "bid"
    assert state.turn == 1


@P4
@pytest.mark.parametrize("deal_index", [i for i, n in enumerate(CLASSIC) if n < 9])
def test_every_short_deal_has_a_turned_card(profile, deal_index):
    n = CLASSIC[deal_index]
    state = start_at(profile, deal_index)
    deck = [
        *"AS KS QS JS TS 9S 8S 7S AH KH QH JH TH 9H 8H 7H 6H AD".split(),
        *"KD QD JD TD 9D 8D 7D 6D AC KC QC JC TC 9C 8C 7C X1 X2".split(),
    ]
    hands = [" ".join(deck[s * n : (s + 1) * n]) for s in range(4)]
    turned = deck[4 * n]
    with pytest.raises(BadDeal):
        apply(state, deal_from(*hands))  # no turned card
    with pytest.raises(BadDeal):
        apply(state, deal_from(*hands, turned=deck[0]))  # a dealt card
    started = apply(state, deal_from(*hands, turned=turned))
    assert started.trump == (turned[1] if turned[0] != "X" else "none")
    assert started.phase == "bid"


@P4
@pytest.mark.parametrize("turned", ["ZZ", "6S", "10H"])
def test_a_turned_card_must_be_a_real_card(profile, turned):
    state = start_at(profile, 0)
    with pytest.raises(BadDeal):
        apply(state, deal_from("AH", "7C", "X1", "KD", turned=turned))


@P4
def test_the_rest_of_the_deck_is_out_of_play(profile):
    state = bids(one_card_deal(profile), 0, 0, 0, 0)
    # The turned card and the undealt cards cannot be played.
    for card in ("9S", "QH", "X2"):
        with pytest.raises(IllegalAction):
            apply(state, PlayCard(1, card))


# --- 2.2 Nine-card deals ----------------------------------------------------


@pytest.mark.parametrize("deal_index", [8, 9, 10, 11, 20, 21, 22, 23])
@pytest.mark.parametrize("first_dealer", [0, 3])
def test_tvaladze_nine_card_deals_turn_the_dealers_last_card(deal_index, first_dealer):
    state = start_at("georgian-tvaladze", deal_index, first_dealer=first_dealer)
    dealer = state.dealer
    hands = list(NINE)
    last = hands[dealer].split()[-1]
    started = apply(state, deal_from(*hands, turned=last))
    assert started.trump == (last[1] if last[0] != "X" else "none")
    assert started.phase == "bid"
    assert started.turn == (dealer + 1) % 4
    # The turned card stays in the dealer's hand.
    assert last in started.hands[dealer]
    assert len(started.hands[dealer]) == 9


@pytest.mark.parametrize(
    "dealer, turned, trump", [(0, "AH", "H"), (1, "AD", "D"), (3, "X2", "none")]
)
def test_tvaladze_turned_card_examples(dealer, turned, trump):
    state = start_at("georgian-tvaladze", 8, first_dealer=(dealer - 8) % 4)
    assert state.dealer == dealer
    started = apply(state, deal_from(*NINE, turned=turned))
    assert started.trump == trump


def test_tvaladze_turned_card_must_be_the_dealers():
    state = start_at("georgian-tvaladze", 8, first_dealer=0)  # dealer 0
    with pytest.raises(BadDeal):
        apply(state, deal_from(*NINE, turned="AD"))  # seat 1's card
    with pytest.raises(BadDeal):
        apply(state, deal_from(*NINE))  # missing


def test_tvaladze_the_dealer_may_play_the_turned_card():
    state = start_at("georgian-tvaladze", 8, first_dealer=0)  # dealer 0, trump H
    state = apply(state, deal_from(*NINE, turned="AH"))
    state = bids(state, 0, 0, 0, 0)
    # Seat 1 leads a heart; seat 0, the dealer, holds only AH in hearts.
    state = play(state, "KH 6D X1:low")
    assert legal(state) == {"AH"}
    state = play(state, "AH")
    assert state.trick_winners == (0,)


@NAMED
@pytest.mark.parametrize("deal_index", [8, 9, 10, 11, 20, 21, 22, 23])
def test_nine_card_deals_trump_is_named_by_the_player_left_of_the_dealer(
    profile, deal_index
):
    state = start_at(profile, deal_index, first_dealer=1)
    namer = (state.dealer + 1) % 4
    state = apply(state, deal_from(*NINE))
    assert state.phase == "trump"
    assert state.trump is None
    assert state.turn == namer
    assert legal(state) == {"S", "H", "D", "C", "none"}
    for trump in ("S", "H", "D", "C", "none"):
        named = apply(state, NameTrump(namer, trump))
        assert named.trump == trump
        assert named.phase == "bid"
        # The namer also bids first.
        assert named.turn == namer


def test_club_nines_every_deal_names_trump():
    for deal_index in range(16):
        state = start_at("georgian-club", deal_index, {"schedule": "nines"}, 0)
        state = apply(state, deal_from(*NINE))
        assert state.phase == "trump"
        assert state.turn == (deal_index + 1) % 4


@NAMED
def test_named_trump_deals_have_no_turned_card(profile):
    state = start_at(profile, 8)
    with pytest.raises(BadDeal):
        apply(state, deal_from(*NINE, turned="AH"))


@NAMED
def test_the_namer_sees_only_the_first_three_cards(profile):
    state = start_at(profile, 8, first_dealer=0)  # dealer 0, namer 1
    state = apply(state, deal_from(*NINE))
    assert view(state, 1)["hand"] == ["KH", "QH", "JH"]
    for seat in (0, 2, 3):
        assert view(state, seat)["hand"] == []
    state = apply(state, NameTrump(1, "D"))
    assert sorted(view(state, 1)["hand"]) == sorted(NINE[1].split())


@NAMED
@pytest.mark.parametrize("bad", ["X", "spades", "", "NONE", "s", "6S"])
def test_an_unknown_trump_is_illegal(profile, bad):
    state = apply(start_at(profile, 8), deal_from(*NINE))
    with pytest.raises(IllegalAction):
        apply(state, NameTrump(state.turn, bad))


@NAMED
def test_naming_trump_out_of_turn_or_bidding_instead(profile):
    state = apply(start_at(profile, 8, first_dealer=0), deal_from(*NINE))
    with pytest.raises(WrongSeat):
        apply(state, NameTrump(0, "S"))
    with pytest.raises(WrongAction):
        apply(state, Bid(1, 2))
    with pytest.raises(WrongAction):
        apply(state, PlayCard(1, "KH"))


@P4
def test_trump_cannot_be_named_in_a_short_deal(profile):
    state = one_card_deal(profile)
    with pytest.raises(WrongAction):
        apply(state, NameTrump(1, "H"))


# --- 2.3 Bidding ------------------------------------------------------------


@P4
@pytest.mark.parametrize("first_dealer", range(4))
def test_bidding_goes_clockwise_from_left_of_the_dealer(profile, first_dealer):
    state = one_card_deal(profile, first_dealer)
    order = []
    while state.phase == "bid":
        order.append(state.turn)
        state = apply(state, Bid(state.turn, 0))
    expected = [(first_dealer + i) % 4 for i in (1, 2, 3, 4)]
    assert order == expected
    # The dealer bids last; the player left of the dealer leads.
    assert state.phase == "card"
    assert state.turn == (first_dealer + 1) % 4


@P4
def test_a_bid_is_from_zero_to_the_cards_each(profile):
    state = apply(
        start_at(profile, 4),
        deal_from(
            "AS KS QS JS TS",
            "AH KH QH JH TH",
            "AD KD QD JD TD",
            "AC KC QC JC TC",
            turned="9S",
        ),
    )
    assert legal(state) == {0, 1, 2, 3, 4, 5}
    for bad in (6, -1, 100):
        with pytest.raises(IllegalAction):
            apply(state, Bid(state.turn, bad))
    state = bids(state, 5, 5, 5)
    assert state.bids[state.dealer] is None


@P4
def test_bidding_out_of_turn(profile):
    state = one_card_deal(profile, first_dealer=0)
    with pytest.raises(WrongSeat):
        apply(state, Bid(2, 0))
    with pytest.raises(WrongSeat):
        apply(state, Bid(0, 0))
    with pytest.raises(WrongAction):
        apply(state, PlayCard(1, "7C"))


DEALER_CASES = [
    # (deal index, bids before the dealer, the dealer's forbidden bid)
    (8, (4, 2, 2), 1),  # seed 003: 9 cards, 4+2+2: not 1
    (5, (1, 1, 1), 3),  # seed 003: 6 cards, 1+1+1: not 3 (0 and 6 are fine)
    (0, (0, 0, 0), 1),
    (0, (1, 0, 0), 0),
    (2, (1, 1, 1), 0),  # the sum is already 3: the dealer may not pass
    (4, (0, 0, 0), 5),
]


@P4
@pytest.mark.parametrize("deal_index, before, forbidden", DEALER_CASES)
def test_the_dealer_may_not_make_the_bids_sum_to_the_cards(
    profile, deal_index, before, forbidden
):
    n = CLASSIC[deal_index]
    state = start_at(profile, deal_index)
    state = apply(state, _deal_of(state, n))
    if state.phase == "trump":
        state = apply(state, NameTrump(state.turn, "S"))
    state = bids(state, *before)
    assert state.turn == state.dealer
    assert legal(state) == set(range(n + 1)) - {forbidden}
    with pytest.raises(IllegalAction):
        apply(state, Bid(state.dealer, forbidden))
    for allowed in set(range(n + 1)) - {forbidden}:
        done = apply(state, Bid(state.dealer, allowed))
        assert sum(done.bids) != n
        assert done.phase == "card"


@P4
def test_no_restriction_when_the_sum_already_passed_the_cards(profile):
    state = apply(
        start_at(profile, 1), deal_from("AS KS", "AH KH", "AD KD", "AC KC", turned="9S")
    )
    state = bids(state, 2, 2, 2)
    assert legal(state) == {0, 1, 2}


@P4
def test_other_players_may_make_the_sum_equal(profile):
    # Only the dealer is restricted.
    state = apply(
        start_at(profile, 2),
        deal_from("AS KS QS", "AH KH QH", "AD KD QD", "AC KC QC", turned="9S"),
    )
    state = bids(state, 3)
    assert legal(state) == {0, 1, 2, 3}
    state = bids(state, 0, 0)
    assert legal(state) == {1, 2, 3}


@P4
def test_seed_003_six_cards_one_one_one(profile):
    state = apply(start_at(profile, 5), _deal_of(start_at(profile, 5), 6))
    state = bids(state, 1, 1, 1)
    assert 0 in legal(state) and 6 in legal(state) and 3 not in legal(state)
    assert bids(state, 0).bids[state.dealer] == 0
    assert bids(state, 6).bids[state.dealer] == 6


def _deal_of(state, n):
    deck = [
        *"AS KS QS JS TS 9S 8S 7S AH KH QH JH TH 9H 8H 7H 6H AD".split(),
        *"KD QD JD TD 9D 8D 7D 6D AC KC QC JC TC 9C 8C 7C X1 X2".split(),
    ]
    hands = [" ".join(deck[s * n : (s + 1) * n]) for s in range(4)]
    if state.rules.trump_is_named(state.deal_index):
        return deal_from(*hands)
    if n == 9:
        return deal_from(*hands, turned=hands[state.dealer].split()[-1])
    return deal_from(*hands, turned=deck[4 * n])


@P4
@pytest.mark.parametrize(
    "deal_bids, table",
    [
        ((0, 0, 0, 0), "shetenva"),
        ((1, 1, 0, 1), "tsaglejva"),
        ((0, 1, 1, 1), "tsaglejva"),
    ],
)
def test_the_table_is_shetenva_or_tsaglejva(profile, deal_bids, table):
    # first dealer 3: seat 0 bids first; the bids are given by seat.
    state = apply(
        start_at(profile, 0, first_dealer=3),
        deal_from("AH", "7C", "X1", "KD", turned="9S"),
    )
    state = bids(state, *deal_bids)
    state = play(state, "AH 7C X1:high KD")
    result = state.deals[-1]
    assert result.bids == deal_bids
    assert result.to_json(state.rules)["table"] == table


@P4
def test_a_pass_is_a_bid_and_the_passer_plays(profile):
    state = one_card_deal(profile, first_dealer=0)
    state = bids(state, 0, 0, 0, 0)
    assert state.bids == (0, 0, 0, 0)
    # Seat 1 passed and still leads the first trick.
    assert state.phase == "card" and state.turn == 1
    state = play(state, "7C X1:low KD AH")
    assert state.deals[-1].tricks == (0, 1, 0, 0)
    # Seat 1 passed and took a trick: 10; seat 2 passed and took none: 50.
    assert state.deals[-1].scores == (50, 10, 50, 50)


def test_japanese_has_no_bidding():
    state = start_at("japanese", 0)
    state = apply(state, deal_cards(state, random.Random(1)))
    assert state.phase == "trump"
    with pytest.raises(WrongAction):
        apply(state, Bid(0, 3))
    state = apply(state, NameTrump(0, "H"))
    assert state.phase == "card" and state.turn == 0
    assert state.bids == ()
    with pytest.raises(WrongAction):
        apply(state, Bid(0, 3))
