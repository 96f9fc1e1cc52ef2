"""RULES.md 2.4-2.6: what a player may play, joker modes, who wins a trick.

Hands are written per seat in card notation; ``mid_deal`` starts the trick
with ``leader`` and ``play``/``legal`` use the same notation
(``"X1:take:S"``, ``"X2:high"``).
"""

from __future__ import annotations

import pytest

from joker import (
    Bid,
    EngineError,
    IllegalAction,
    NameTrump,
    PlayCard,
    WrongAction,
    WrongSeat,
    apply,
)
from tests.joker.notation import (
    FOUR_PLAYER,
    legal,
    mid_deal,
    parse_play,
    play,
    winner,
)

P4 = pytest.mark.parametrize("profile", FOUR_PLAYER)
# Rules that differ only by live-games' extra "nominal" mode.
NOT_LIVE = pytest.mark.parametrize("profile", ["georgian-club", "georgian-tvaladze"])


def answers(profile: str, joker: str) -> set[str]:
    """Every legal way to answer with a joker (RULES.md 2.5)."""
    modes = ["high", "low"] + (["nominal"] if profile == "live-games" else [])
    return {f"{joker}:{mode}" for mode in modes}


def leads(profile: str, joker: str) -> set[str]:
    """Every legal way to lead a joker (RULES.md 2.5)."""
    out = {f"{joker}:{mode}:{suit}" for mode in ("take", "give") for suit in "SHDC"}
    if profile == "live-games":
        out.add(f"{joker}:nominal")
    return out


def rejected(state, text: str, error=IllegalAction):
    """``text`` by the seat to move raises ``error`` and changes nothing."""
    before = state
    snapshot = (state.hands, state.trick, state.tricks, state.turn, state.phase)
    with pytest.raises(error):
        apply(state, parse_play(text, state.turn))
    assert state == before
    assert (state.hands, state.trick, state.tricks, state.turn, state.phase) == snapshot


# --- 2.4 What a player may play ---------------------------------------------


@P4
def test_the_leader_may_play_any_card(profile):
    state = mid_deal(
        profile, ["7C AH 9S X1", "8C 9C TC JC", "AS KS QS JS", "6H 7H 8H 9H"], "S"
    )
    assert legal(state) == {"7C", "AH", "9S"} | leads(profile, "X1")


@P4
def test_a_follower_must_follow_the_led_suit(profile):
    state = mid_deal(profile, ["7C 8D", "9C KC AH 8S", "AS KS", "6H 7H"], "S", "7C")
    assert legal(state) == {"9C", "KC"}
    rejected(state, "AH")
    rejected(state, "8S")
    state = play(state, "KC")
    assert state.turn == 2


@P4
def test_the_record_md_example_of_legal_choices(profile):
    # After a 7C lead, a player holding 9C, KC and X1.
    state = mid_deal(
        profile, ["7C 8D", "8C 9D", "9C KC X1", "KD 8H"], "S", "7C 8C", leader=0
    )
    assert state.turn == 2
    assert legal(state) == {"9C", "KC"} | answers(profile, "X1")


@P4
def test_a_joker_may_always_be_played_even_holding_the_suit(profile):
    state = mid_deal(profile, ["7C 8D", "9C X2", "AS KS", "6H 7H"], "S", "7C")
    assert legal(state) == {"9C"} | answers(profile, "X2")
    for choice in answers(profile, "X2"):
        play(state, choice)  # no error


@P4
def test_a_void_follower_must_trump_with_any_trump(profile):
    state = mid_deal(profile, ["7C 8D", "AH 8S 9S", "7S KS AD", "6H 7H"], "S", "7C")
    assert legal(state) == {"8S", "9S"}
    rejected(state, "AH")
    state = play(state, "9S")
    # Over-trumping is never required: 7S under the 9S is fine.
    assert legal(state) == {"7S", "KS"}
    play(state, "7S")


@P4
def test_void_in_the_suit_and_in_trumps_plays_anything(profile):
    state = mid_deal(profile, ["7C 8D", "AH 8D 9H", "7S KS", "6H 7H"], "S", "7C")
    assert legal(state) == {"AH", "8D", "9H"}


@P4
def test_in_a_no_trump_deal_a_void_follower_plays_anything(profile):
    state = mid_deal(profile, ["7C 8D", "AH 8S 9S", "7S KS", "6H 7H"], "none", "7C")
    assert legal(state) == {"AH", "8S", "9S"}


@P4
def test_a_joker_is_never_a_card_of_its_nominal_suit(profile):
    # Seat 1's only spade is X1 (which replaced 6S): it is void in spades and
    # must trump.
    state = mid_deal(profile, ["7S 8D", "X1 AH 9D", "8S KS", "6H 7H"], "D", "7S")
    assert legal(state) == {"9D"} | answers(profile, "X1")
    # The same for X2 and clubs.
    state = mid_deal(profile, ["7C 8S", "X2 AH 9D", "8C KS", "6H 7H"], "D", "7C")
    assert legal(state) == {"9D"} | answers(profile, "X2")


@P4
def test_after_a_take_lead_followers_must_play_their_highest_card_of_the_suit(profile):
    state = mid_deal(
        profile, ["X1 8D", "7C QC KC AH", "8C JC 9D", "6H 7H"], "S", "X1:take:C"
    )
    assert legal(state) == {"KC"}
    rejected(state, "QC")
    rejected(state, "7C")
    rejected(state, "AH")
    state = play(state, "KC")
    # Every follower, not only the next one.
    assert legal(state) == {"JC"}
    rejected(state, "8C")


@P4
def test_after_a_take_lead_a_joker_still_may_be_played(profile):
    state = mid_deal(profile, ["X1 8D", "7C KC X2", "8C JC", "6H 7H"], "S", "X1:take:C")
    assert legal(state) == {"KC"} | answers(profile, "X2")


@P4
def test_after_a_take_lead_a_void_follower_must_trump_any_trump(profile):
    state = mid_deal(profile, ["X1 8D", "7S 9S AH", "8C JC", "6H 7H"], "S", "X1:take:C")
    assert legal(state) == {"7S", "9S"}
    rejected(state, "AH")


@P4
def test_after_a_take_lead_void_in_suit_and_trump_plays_anything(profile):
    state = mid_deal(profile, ["X1 8D", "7H 9D AH", "8C JC", "6H 7D"], "S", "X1:take:C")
    assert legal(state) == {"7H", "9D", "AH"}


@P4
def test_take_in_the_trump_suit_demands_the_highest_trump(profile):
    state = mid_deal(profile, ["X1 8D", "7S 9S AH", "8C JC", "6H 7D"], "S", "X1:take:S")
    assert legal(state) == {"9S"}


@P4
def test_after_a_give_lead_followers_follow_suit_normally(profile):
    state = mid_deal(
        profile, ["X2 8D", "7C QC KC AH", "8D JD", "6H 7H"], "S", "X2:give:C"
    )
    assert legal(state) == {"7C", "QC", "KC"}
    rejected(state, "AH")


@P4
def test_after_a_give_lead_a_void_follower_must_trump(profile):
    state = mid_deal(profile, ["X2 8D", "7H 9S AH", "8D JD", "6H 7H"], "S", "X2:give:C")
    assert legal(state) == {"9S"}


# --- 2.5 Joker modes --------------------------------------------------------


@P4
def test_joker_lead_modes_name_a_suit(profile):
    state = mid_deal(profile, ["X2 8D", "7H 9S", "8D JD", "6H 7H"], "H")
    assert legal(state) == {"8D"} | leads(profile, "X2")


@P4
def test_joker_answer_modes(profile):
    state = mid_deal(profile, ["8D 7H", "X2 9S", "9D JD", "6H 7D"], "H", "8D")
    assert legal(state) == {"9S"} | answers(profile, "X2")


@P4
@pytest.mark.parametrize(
    "bad",
    [
        "X2:high",
        "X2:low",
        "X2:take",
        "X2:give",
        "X2:take:X",
        "X2:give:none",
        "X2:foo:S",
    ],
)
def test_joker_lead_modes_that_are_not_allowed(profile, bad):
    state = mid_deal(profile, ["X2 8D", "7H 9S", "8D JD", "6H 7H"], "H")
    rejected(state, bad)


@P4
@pytest.mark.parametrize(
    "bad", ["X2:take:S", "X2:give:H", "X2:high:S", "X2:low:D", "X2:foo"]
)
def test_joker_answer_modes_that_are_not_allowed(profile, bad):
    state = mid_deal(profile, ["8D 7H", "X2 9S", "9D JD", "6H 7D"], "H", "8D")
    rejected(state, bad)


@NOT_LIVE
def test_nominal_is_live_games_only(profile):
    state = mid_deal(profile, ["X2 8D", "7H 9S", "8D JD", "6H 7H"], "H")
    rejected(state, "X2:nominal")
    state = mid_deal(profile, ["8D 7H", "X2 9S", "9D JD", "6H 7D"], "H", "8D")
    rejected(state, "X2:nominal")


def test_live_nominal_may_not_name_a_suit():
    state = mid_deal("live-games", ["X2 8D", "7H 9S", "8D JD", "6H 7H"], "H")
    rejected(state, "X2:nominal:C")


def test_live_nominal_x1_lead_demands_spades():
    state = mid_deal(
        "live-games", ["X1 8D", "7S AS KD", "8D JD", "6H 7H"], "H", "X1:nominal"
    )
    assert legal(state) == {"7S", "AS"}
    rejected(state, "KD")


def test_live_nominal_x2_lead_demands_clubs():
    state = mid_deal(
        "live-games", ["X2 8D", "7C AC KD", "8D JD", "6H 7H"], "H", "X2:nominal"
    )
    assert legal(state) == {"7C", "AC"}


def test_live_nominal_ignores_every_obligation():
    # Holding clubs after a take(C) lead, X1 may still go as a nominal 6S.
    state = mid_deal(
        "live-games", ["X2 8D", "7C AC X1", "8D JD", "6H 7H"], "H", "X2:take:C"
    )
    assert "X1:nominal" in legal(state)
    state = play(state, "X1:nominal")
    assert state.trick[-1] == PlayCard(1, "X1", "nominal")


# --- 2.6 Who wins a trick ---------------------------------------------------

WINNERS = [
    # 2.6.1: a high joker takes the trick, over trumps; the last high wins.
    ("S", "7C X1:high AS 8C", 1),
    ("S", "AS KS X2:high QS", 2),
    ("none", "7C X1:high X2:high 8C", 2),
    ("S", "X1:take:C 7C X2:high 8C", 2),
    ("S", "X1:take:S 7S X2:high AS", 2),
    ("S", "X1:give:H 7S X2:high 8D", 2),
    ("S", "X1:take:C 7S 8S X2:high", 3),
    # A low joker never wins.
    ("S", "7C X1:low 8D 9H", 0),
    ("none", "7C 8C X2:low 9H", 1),
    ("S", "7C 8C 9C X1:low", 2),
    ("S", "X1:take:C 8C 9C X2:low", 0),
    # 2.6.2: a take(L) lead wins unless L is not trump and someone trumped.
    ("S", "X1:take:C 7C 8C AC", 0),
    ("S", "X1:take:C AC 7S 8C", 2),
    ("S", "X1:take:C 7S 8C 9S", 3),
    ("S", "X1:take:H 8D 9D TD", 0),
    ("S", "X2:take:S AS KS QS", 0),
    ("none", "X1:take:C AC KC QC", 0),
    ("H", "X2:take:D 7H 8H AH", 3),
    # 2.6.3: highest trump, else highest card of the demanded suit.
    ("S", "AC 7S 8C 9S", 3),
    ("S", "AC KC 7S QC", 2),
    ("none", "7C 8C AH KC", 3),
    ("D", "7C 8C AH KC", 3),
    ("D", "7C 8H 9H TS", 0),
    ("H", "TH 7H AH 9C", 2),
    # A give(L) lead is the lowest card of L ...
    ("S", "X1:give:C 7C 8D 9H", 1),
    ("none", "X2:give:H 6H 8D 9C", 1),
    ("S", "X1:give:H 8D 7S 9D", 2),
    # ... and wins only if nobody followed, trumped or played high.
    ("S", "X1:give:C 7D 8D 9H", 0),
    ("S", "X1:give:C X2:low 8D 9H", 0),
    ("none", "X1:give:C 7D AD 9H", 0),
    ("C", "X1:give:C 7D 8D 9H", 0),
    ("C", "X1:give:C 7D 7C 9H", 2),
    ("S", "X1:give:C 7D 8D X2:high", 3),
]


@P4
@pytest.mark.parametrize("trump, trick, expected", WINNERS)
def test_trick_winner(profile, trump, trick, expected):
    assert winner(profile, trump, trick) == expected


@P4
@pytest.mark.parametrize("leader", range(4))
def test_trick_winner_does_not_depend_on_who_leads(profile, leader):
    # The same cards in the same order, led from each seat.
    assert winner(profile, "S", "7C X1:high AS 8C", leader=leader) == (leader + 1) % 4
    assert winner(profile, "S", "X1:take:C 7S 8C 9S", leader=leader) == (leader + 3) % 4


LIVE_WINNERS = [
    # RULES.md 2.4: spades trump, a nominal 6S is a trump and beats take(C).
    ("S", "X2:take:C X1:nominal 7D 8D", 1),
    ("S", "X2:take:C 7C X1:nominal 8C", 2),
    # A nominal joker is an ordinary six.
    ("H", "X1:nominal 7S 8H 9D", 2),
    ("none", "X2:nominal 8D 9D 7H", 0),
    ("none", "X2:nominal 7C 8D 9D", 1),
    ("D", "7H X1:nominal 8C 9C", 0),
    ("C", "7H X2:nominal 8S 9S", 1),
    # Below its six: give(S) loses to a nominal 6S.
    ("none", "X2:give:S X1:nominal 7H 8H", 1),
    # A nominal joker can be beaten by a high joker.
    ("S", "X1:nominal 7S X2:high AS", 2),
    # A take(S) lead in the trump suit beats even a nominal trump six.
    ("S", "X2:take:S X1:nominal 7D 8D", 0),
]


@pytest.mark.parametrize("trump, trick, expected", LIVE_WINNERS)
def test_live_trick_winner_with_nominal_jokers(trump, trick, expected):
    assert winner("live-games", trump, trick) == expected


# --- Turn order and the next trick ------------------------------------------


@P4
def test_play_goes_clockwise_and_the_winner_leads_the_next_trick(profile):
    state = mid_deal(profile, ["7C 8D", "9C 7D", "AC 9D", "8C TD"], "S", leader=3)
    assert state.turn == 3
    state = play(state, "8C")
    assert state.turn == 0
    state = play(state, "7C 9C")
    assert state.turn == 2
    state = play(state, "AC")
    assert state.tricks == (0, 0, 1, 0)
    assert state.trick_winners == (2,)
    assert state.turn == 2 and state.leader == 2
    assert state.trick == ()
    state = play(state, "9D TD 8D 7D")
    # Last trick of the 2-card deal: the deal is scored.
    assert state.deals[-1].trick_winners == (2, 3)
    assert state.deals[-1].tricks == (0, 0, 1, 1)


@P4
def test_a_card_not_held_is_illegal(profile):
    state = mid_deal(profile, ["7C 8D", "9C 7D", "AC 9D", "8C TD"], "S")
    rejected(state, "AC")  # seat 2's card
    rejected(state, "KH")  # nobody's
    rejected(state, "ZZ")  # not a card
    rejected(state, "6S")  # not in this deck
    state = play(state, "7C 9C AC 8C")
    assert state.turn == 2
    rejected(state, "AC")  # already played


@P4
def test_actions_out_of_turn_or_of_the_wrong_kind(profile):
    state = mid_deal(profile, ["7C 8D", "9C 7D", "AC 9D", "8C TD"], "S")
    with pytest.raises(WrongSeat):
        apply(state, PlayCard(1, "9C"))
    with pytest.raises(WrongSeat):
        apply(state, PlayCard(4, "9C"))
    with pytest.raises(WrongAction):
        apply(state, Bid(0, 1))
    with pytest.raises(WrongAction):
        apply(state, NameTrump(0, "S"))


@P4
def test_a_rejected_play_is_a_typed_engine_error(profile):
    state = mid_deal(profile, ["7C 8D", "9C 7D", "AC 9D", "8C TD"], "S", "7C")
    with pytest.raises(EngineError) as caught:
        apply(state, PlayCard(1, "7D"))
    assert caught.value.code == "illegal"


@P4
def test_an_ordinary_card_with_a_joker_mode_is_not_a_legal_play(profile):
    # Only jokers carry a mode: "7C high" is not among the legal actions and
    # must not be accepted (it would otherwise take the trick as a high joker).
    state = mid_deal(profile, ["AC 8D", "9C 7D", "7C 9D", "8C TD"], "S", "AC")
    assert "9C:high" not in legal(state)
    rejected(state, "9C:high")
    rejected(state, "9C:low")


@P4
def test_an_ordinary_card_naming_a_suit_is_not_a_legal_play(profile):
    state = mid_deal(profile, ["7C 8D", "9C 7D", "AC 9D", "8C TD"], "S")
    rejected(state, "7C:take:S")
