"""``view`` shows each seat only what it may see (RULES.md section 4)."""

from __future__ import annotations

import json
import random

from joker import Deal, apply, legal_actions, make_rules, new_game
from joker.cards import DECK
from joker.shuffle import deal_cards
from joker.view import view


def text_of(seat_view: dict) -> str:
    return json.dumps(seat_view)


def cards_in(seat_view: dict) -> set[str]:
    """Every card code that appears anywhere in a view."""
    text = text_of(seat_view)
    return {card for card in DECK if f'"{card}"' in text}


def nines_club_deal():
    """A 9-card club deal (deal 8 of classic), before trump is named."""
    state = new_game(make_rules("georgian-club", {"schedule": "nines"}), 3)
    hands = (
        ("AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AH"),
        ("KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "AD"),
        ("KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "AC"),
        ("KC", "QC", "JC", "TC", "9C", "8C", "7C", "X1", "X2"),
    )
    return apply(state, Deal(hands)), hands


def test_naming_trump_the_chooser_sees_only_three_cards_and_others_none():
    state, hands = nines_club_deal()
    assert state.phase == "trump" and state.turn == 0
    assert view(state, 0)["hand"] == ["AS", "KS", "QS"]
    assert cards_in(view(state, 0)) == {"AS", "KS", "QS"}
    for seat in (1, 2, 3, None):
        assert cards_in(view(state, seat)) == set()


def test_after_trump_each_seat_sees_its_own_hand_only():
    state, hands = nines_club_deal()
    state = apply(state, legal_actions(state)[0])
    for seat in range(4):
        seen = cards_in(view(state, seat))
        assert seen == set(hands[seat])
    assert cards_in(view(state, None)) == set()


def test_played_cards_are_public():
    state, hands = nines_club_deal()
    state = apply(state, legal_actions(state)[0])
    while state.phase == "bid":
        state = apply(state, legal_actions(state)[0])
    lead = legal_actions(state)[0]
    state = apply(state, lead)
    for seat in (1, 2, 3, None):
        assert lead.card in cards_in(view(state, seat))


def test_the_turned_card_is_public_but_the_rest_of_the_deck_is_not():
    rng = random.Random(7)
    state = new_game(make_rules("georgian-club"), 0)
    deal = deal_cards(state, rng)
    state = apply(state, deal)
    dealt = {card for hand in deal.hands for card in hand}
    for seat in (0, 1, 2, 3, None):
        seen = cards_in(view(state, seat))
        assert deal.turned in seen
        own = set(deal.hands[seat]) if seat is not None else set()
        assert seen == own | {deal.turned}
        assert not seen & (set(DECK) - dealt - {deal.turned})


def test_japanese_face_down_cards_and_the_other_hand_stay_hidden():
    rng = random.Random(3)
    state = new_game(make_rules("japanese"), 0)
    deal = deal_cards(state, rng)
    state = apply(state, deal)
    assert cards_in(view(state, 1)) == set(deal.hands[1][:3])
    state = apply(state, legal_actions(state)[0])
    face_up = {up for own in deal.columns for _, up in own}
    face_down = {down for own in deal.columns for down, _ in own}
    for seat in (0, 1):
        seen = cards_in(view(state, seat))
        assert seen == set(deal.hands[seat]) | face_up
        assert not seen & face_down
    assert cards_in(view(state, None)) == face_up


def test_only_the_seat_to_move_gets_its_legal_choices():
    state, _ = nines_club_deal()
    assert "legal" in view(state, 0)
    assert all("legal" not in view(state, seat) for seat in (1, 2, 3, None))
