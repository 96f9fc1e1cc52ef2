"""RULES.md 3: Japanese Joker, with the worked example of seed 000 replayed."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from joker import (
    BadDeal,
    BadRecord,
    Bid,
    Deal,
    IllegalAction,
    NameTrump,
    PlayCard,
    Resign,
    WrongAction,
    WrongSeat,
    apply,
    legal_actions,
    make_rules,
    new_game,
)
from joker.scoring import japanese_points
from joker.shuffle import deal_cards
from joker.view import view
from tests.joker.notation import (
    columns_of,
    deal_from,
    legal,
    mid_deal,
    parse_play,
    play,
    play_out,
    winner,
)

J = "japanese"

# Seed 000's example. Giorgi (seat 0) declares; his first three cards are
# AH TH KC. The face-down cards are not given in the text; these are chosen
# to fit it (no club ace reaches Giorgi's hand before trick 5).
GIORGI_HAND = "AH TH KC 9C JD 7D 8S QS"
GIORGI_COLUMNS = "X2/KS 9H/6D QD/QC 9S/8H 7S/TD"
NINO_HAND = "7H JH X1 TS 8D 9D 7C AD"
NINO_COLUMNS = "QH/AS JC/JS AC/TC KH/6H 8C/KD"
EXAMPLE_DEAL = deal_from(GIORGI_HAND, NINO_HAND, columns=(GIORGI_COLUMNS, NINO_COLUMNS))


def example_game(target=21):
    return new_game(make_rules(J, {"target": target}), 0)


def rejected(state, text, error=IllegalAction):
    before = state
    with pytest.raises(error):
        apply(state, parse_play(text, state.turn))
    assert state == before


# --- The seed 000 worked example ---------------------------------------------


def test_seed_000_example_deal_is_a_valid_deal():
    cards = [c for hand in EXAMPLE_DEAL.hands for c in hand]
    cards += [c for own in EXAMPLE_DEAL.columns for col in own for c in col]
    assert len(cards) == len(set(cards)) == 36
    # Face-up cards as listed in the example.
    ups = [[up for _, up in own] for own in EXAMPLE_DEAL.columns]
    assert ups == [["KS", "6D", "QC", "8H", "TD"], ["AS", "JS", "TC", "6H", "KD"]]


def test_seed_000_worked_example_trick_by_trick():
    state = apply(example_game(), EXAMPLE_DEAL)
    # Giorgi has seen AH TH KC and names hearts.
    assert state.phase == "trump" and state.turn == 0
    assert view(state, 0)["hand"] == ["AH", "TH", "KC"]
    state = apply(state, NameTrump(0, "H"))
    assert state.trump == "H"
    assert state.turn == 0  # the declarer leads

    # Trick 1: both first cards come from the hand. AH, 7H: 1:0.
    assert "8H" not in legal(state)  # a face-up card, not yet
    state = play(state, "AH")
    assert legal(state) == {"7H", "JH", "X1:high"}  # not the face-up 6H
    state = play(state, "7H")
    assert state.tricks == (1, 0)
    assert state.turn == 0

    # Trick 2: Giorgi leads the face-up 8H; Nino answers with the face-up 6H.
    assert "8H" in legal(state)
    state = play(state, "8H")
    assert "9S" in state.hands[0]  # the face-down card below went to the hand
    assert legal(state) == {"JH", "6H", "X1:high"}
    state = play(state, "6H")
    assert "KH" in state.hands[1]
    assert state.tricks == (2, 0)
    assert len(state.columns[0]) == 4 and len(state.columns[1]) == 4

    # Trick 3: the face-up QC; Nino has 7C in hand and TC on the table.
    state = play(state, "QC")
    assert legal(state) == {"7C", "TC", "X1:high"}
    state = play(state, "7C")
    assert state.tricks == (3, 0)

    # Trick 4: JD from the hand; Nino takes with the face-up KD, keeps AD.
    state = play(state, "JD")
    assert legal(state) == {"8D", "9D", "AD", "KD", "X1:high"}
    state = play(state, "KD")
    assert state.tricks == (3, 1)
    assert state.turn == 1  # now Nino leads
    assert "AD" in state.hands[1]

    # Trick 5: Nino leads the joker naming clubs; Giorgi must give his
    # highest club, KC; the joker takes the trick.
    assert {f"X1:take:{s}" for s in "SHDC"} <= legal(state)
    state = play(state, "X1:take:C")
    assert legal(state) == {"KC"}
    rejected(state, "9C")
    state = play(state, "KC")
    assert state.tricks == (3, 2)
    assert state.trick_winners == (0, 0, 0, 1, 1)

    # The deal goes on to the eighteenth trick.
    state = play_out(state)
    result = state.deals[0]
    assert sum(result.tricks) == 18
    assert len(result.trick_winners) == 18
    a, b = result.tricks
    assert list(result.scores) == [max(a - b, 0), max(b - a, 0)]
    assert list(state.totals) == list(result.scores)
    # Deal 2: Nino names trump and leads the first trick.
    state = apply(state, deal_cards(state, random.Random(0)))
    assert state.phase == "trump" and state.turn == 1
    state = apply(state, NameTrump(1, "none"))
    assert state.turn == 1 and state.phase == "card"


def test_seed_000_without_clubs_giorgi_must_trump_and_takes_the_joker():
    state = mid_deal(
        J,
        ["TH 7D 8S", "X1 AD 8C"],
        "H",
        "X1:take:C",
        leader=1,
        tricks_done=4,
        columns=("9H/6D 7S/TD", "AC/TC QH/AS"),
    )
    assert legal(state) == {"TH"}
    state = play(state, "TH")
    assert state.trick_winners[-1] == 0


def test_seed_000_ten_eight_scores_two():
    assert japanese_points((10, 8)) == [2, 0]


# --- 3.1 The deal --------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1])
def test_the_declarer_alternates_names_trump_and_leads(first):
    state = new_game(make_rules(J), first)
    rng = random.Random(first)
    for deal_index in range(4):
        declarer = (first + deal_index) % 2
        state = apply(state, deal_cards(state, rng))
        assert state.phase == "trump"
        assert state.turn == declarer
        assert legal(state) == {"S", "H", "D", "C", "none"}
        with pytest.raises(WrongSeat):
            apply(state, NameTrump(1 - declarer, "S"))
        state = apply(state, NameTrump(declarer, "D"))
        assert state.phase == "card" and state.turn == declarer
        assert len(state.hands[0]) == len(state.hands[1]) == 8
        assert len(state.columns[0]) == len(state.columns[1]) == 5
        state = play_out(state)
        assert state.deals[-1].dealer == declarer
        assert sum(state.deals[-1].tricks) == 18
        if state.is_over:
            break


def test_naming_trump_errors():
    state = apply(example_game(), EXAMPLE_DEAL)
    with pytest.raises(IllegalAction):
        apply(state, NameTrump(0, "hearts"))
    with pytest.raises(WrongAction):
        apply(state, PlayCard(0, "AH"))
    with pytest.raises(WrongAction):
        apply(state, Bid(0, 1))


def _deal(hands, columns, turned=None):
    return Deal(tuple(tuple(h.split()) for h in hands), turned, columns)


@pytest.mark.parametrize(
    "deal",
    [
        # a hand of 7
        _deal(
            [GIORGI_HAND.rsplit(" ", 1)[0], NINO_HAND],
            (columns_of(GIORGI_COLUMNS), columns_of(NINO_COLUMNS)),
        ),
        # 4 columns
        _deal(
            [GIORGI_HAND, NINO_HAND],
            (columns_of(GIORGI_COLUMNS)[:4], columns_of(NINO_COLUMNS)),
        ),
        # a column of one card
        _deal(
            [GIORGI_HAND, NINO_HAND],
            (columns_of(GIORGI_COLUMNS)[:4] + (("7S",),), columns_of(NINO_COLUMNS)),
        ),
        # a duplicate card
        _deal(
            [GIORGI_HAND, NINO_HAND.replace("AD", "AH")],
            (columns_of(GIORGI_COLUMNS), columns_of(NINO_COLUMNS)),
        ),
        # a turned card
        _deal(
            [GIORGI_HAND, NINO_HAND],
            (columns_of(GIORGI_COLUMNS), columns_of(NINO_COLUMNS)),
            turned="AH",
        ),
        # no columns for the second seat
        _deal([GIORGI_HAND, NINO_HAND], (columns_of(GIORGI_COLUMNS),)),
    ],
)
def test_bad_japanese_deals(deal):
    with pytest.raises(BadDeal):
        apply(example_game(), deal)


# --- 3.2 Columns -------------------------------------------------------------


def example_after_trick_1():
    state = apply(apply(example_game(), EXAMPLE_DEAL), NameTrump(0, "H"))
    return play(state, "AH 7H")


def test_face_down_cards_are_never_playable():
    state = example_after_trick_1()
    for card in ("X2", "9H", "QD", "9S", "7S"):
        rejected(state, card)


def test_only_own_face_up_cards_are_playable():
    state = example_after_trick_1()
    for card in ("AS", "JS", "TC", "6H", "KD"):  # Nino's
        rejected(state, card)
    assert {"KS", "6D", "QC", "8H", "TD"} <= legal(state)


def test_the_first_card_of_each_player_comes_from_the_hand():
    state = apply(apply(example_game(), EXAMPLE_DEAL), NameTrump(0, "H"))
    for card in ("KS", "6D", "QC", "8H", "TD"):
        rejected(state, card)
    assert legal(state) == set(GIORGI_HAND.split())
    state = play(state, "JD")
    # Nino's face-up KD is not available in trick 1 either.
    assert legal(state) == {"8D", "9D", "AD", "X1:high"}
    rejected(state, "KD")


def test_playing_a_face_up_card_moves_the_card_below_to_the_hand():
    state = example_after_trick_1()
    hand_before = len(state.hands[0])
    state = play(state, "KS")
    assert "X2" in state.hands[0]
    assert len(state.hands[0]) == hand_before + 1  # the hand grows
    assert ("X2", "KS") not in state.columns[0]
    assert len(state.columns[0]) == 4
    # The card is now an ordinary hand card.
    state = play(state, "AS")
    assert state.trick_winners[-1] == 1
    assert state.turn == 1


def test_two_columns_clear_the_table():
    state = mid_deal(
        J,
        ["7C", "8C 9D"],
        "S",
        tricks_done=3,
        columns=("9H/6D 7S/TD", "AC/TC QH/AS"),
    )
    state = play(state, "6D")
    # The face-down 9H and both cards of the other column go to the hand.
    assert state.columns[0] == ()
    assert sorted(state.hands[0]) == sorted(["7C", "9H", "7S", "TD"])
    state = play(state, "9D")
    assert state.columns[1] == (("AC", "TC"), ("QH", "AS"))


def test_a_player_never_has_exactly_one_column():
    state = mid_deal(
        J,
        ["7C", "8C 9D"],
        "none",
        tricks_done=3,
        columns=("9H/6D 7S/TD KD/8H", "AC/TC QH/AS"),
    )
    state = play(state, "8H 9D")
    assert len(state.columns[0]) == 2
    state = play(state, "TD")
    assert state.columns[0] == ()
    assert {"KD", "7S", "9H", "6D"} <= set(state.hands[0])


# --- 3.3 Play ------------------------------------------------------------------


def test_following_suit_counts_face_up_cards():
    state = mid_deal(
        J,
        ["7C 8S", "AH 8D"],
        "S",
        "7C",
        tricks_done=1,
        columns=("9H/6D 7S/TD", "QH/9C 7D/KD"),
    )
    assert legal(state) == {"9C"}
    rejected(state, "AH")


def test_must_trump_with_a_face_up_trump():
    state = mid_deal(
        J,
        ["7C 8S", "AH 8D"],
        "S",
        "7C",
        tricks_done=1,
        columns=("9H/6D 7S/TD", "QH/9S 7D/KD"),
    )
    assert legal(state) == {"9S"}


def test_no_trump_deal_void_plays_anything_available():
    state = mid_deal(
        J,
        ["7C 8S", "AH 8D"],
        "none",
        "7C",
        tricks_done=1,
        columns=("9H/6D 7S/TD", "QH/9S 7D/KD"),
    )
    assert legal(state) == {"AH", "8D", "9S", "KD"}


def test_in_trick_one_face_up_cards_do_not_count_for_following():
    state = mid_deal(J, ["7C 8S", "AH 8D"], "S", "7C", columns=("9H/6D", "QH/9C"))
    assert legal(state) == {"AH", "8D"}


def test_after_a_joker_lead_the_highest_available_card_of_the_suit():
    state = mid_deal(
        J,
        ["X1 8S", "7C 9D"],
        "S",
        "X1:take:C",
        tricks_done=1,
        columns=("9H/6D 7S/TD", "8H/KC JH/7D"),
    )
    assert legal(state) == {"KC"}
    rejected(state, "7C")


def test_after_a_joker_lead_without_the_suit_a_trump_if_available():
    state = mid_deal(
        J,
        ["X1 8S", "7H 9D"],
        "S",
        "X1:take:C",
        tricks_done=1,
        columns=("9H/6D 7S/TD", "8H/KS JH/7D"),
    )
    assert legal(state) == {"KS"}


def test_the_second_player_may_always_answer_with_a_joker():
    state = mid_deal(J, ["7C 8S", "9C X2"], "S", "7C", tricks_done=1)
    assert legal(state) == {"9C", "X2:high"}


def test_japanese_joker_modes():
    state = mid_deal(J, ["X1 8S", "9C X2"], "S", tricks_done=1)
    assert legal(state) == {"8S"} | {f"X1:take:{s}" for s in "SHDC"}
    for bad in ("X1:give:S", "X1:high", "X1:low", "X1:take", "X1:nominal"):
        rejected(state, bad)
    state = play(state, "8S")
    for bad in ("X2:low", "X2:take:S", "X2:give:S", "X2:nominal", "X2:high:S"):
        rejected(state, bad)
    play(state, "X2:high")


def test_an_ordinary_card_with_a_mode_is_not_legal():
    state = mid_deal(J, ["AC 8S", "9C X2"], "S", "AC", tricks_done=1)
    rejected(state, "9C:high")


JAPANESE_WINNERS = [
    # A joker lead takes, unless L is not trump and the answer is a trump.
    ("H", "X1:take:C KC", 0),
    ("H", "X1:take:C 7H", 1),
    ("H", "X1:take:H AH", 0),
    ("none", "X1:take:C AC", 0),
    ("none", "X2:take:S 7H", 0),
    # A joker answer wins, even against a trump; with both jokers the second.
    ("S", "7C X1:high", 1),
    ("S", "AS X2:high", 1),
    ("S", "X1:take:C X2:high", 1),
    ("none", "X2:take:H X1:high", 1),
    # Ordinary cards.
    ("S", "AC 7S", 1),
    ("S", "7S AS", 1),
    ("S", "AS 7C", 0),
    ("none", "7C AH", 0),
    ("none", "7C 8C", 1),
    ("D", "7C 8C", 1),
    ("D", "9C 8C", 0),
    ("D", "7C AH", 0),
]


@pytest.mark.parametrize("trump, trick, expected", JAPANESE_WINNERS)
@pytest.mark.parametrize("leader", [0, 1])
def test_japanese_trick_winner(trump, trick, expected, leader):
    assert winner(J, trump, trick, leader=leader) == (leader + expected) % 2


def test_the_trick_winner_leads_the_next():
    state = mid_deal(J, ["7C 8S", "9C 8D"], "S", tricks_done=1)
    state = play(state, "7C 9C")
    assert state.turn == 1 and state.leader == 1


# --- 3.4 Score and match -------------------------------------------------------


@pytest.mark.parametrize(
    "tricks, points",
    [
        ((11, 7), [4, 0]),
        ((7, 11), [0, 4]),
        ((9, 9), [0, 0]),
        ((10, 8), [2, 0]),
        ((18, 0), [18, 0]),
        ((0, 18), [0, 18]),
    ],
)
def test_deal_points(tricks, points):
    assert japanese_points(tricks) == points


@pytest.mark.parametrize("target", [11, 15, 21, 31])
def test_the_match_ends_after_the_deal_reaching_the_target(target):
    state = new_game(make_rules(J, {"target": target}), 1)
    rng = random.Random(target)
    totals = [0, 0]
    while not state.is_over:
        assert max(state.totals) < target
        state = apply(state, deal_cards(state, rng))
        state = play_out(state)
        points = list(state.deals[-1].scores)
        tricks = state.deals[-1].tricks
        assert sum(tricks) == 18
        assert points == [max(tricks[0] - tricks[1], 0), max(tricks[1] - tricks[0], 0)]
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        assert list(state.totals) == totals
    assert max(state.totals) >= target
    top = max(range(2), key=lambda s: state.totals[s])
    assert state.winners == [top]
    assert list(state.places) == [1 if s == top else 2 for s in range(2)]
    assert legal_actions(state) == []
    with pytest.raises(WrongAction):
        apply(state, deal_cards(state, rng))


@pytest.mark.parametrize(
    "value, target", [(None, 21), (11, 11), ("15", 15), ("31", 31), (21, 21)]
)
def test_target_option(value, target):
    options = None if value is None else {"target": value}
    assert make_rules(J, options).target == target


@pytest.mark.parametrize("value", [20, "20", 21.0, True, "twenty-one", None, 0])
def test_bad_target_option(value):
    with pytest.raises(BadRecord):
        make_rules(J, {"target": value})


def test_a_nine_nine_deal_scores_nothing_and_the_match_goes_on():
    assert japanese_points((9, 9)) == [0, 0]


# --- 3.5 Resigning -------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1])
def test_resigning_ends_the_match_and_the_opponent_wins(seat):
    state = example_after_trick_1()
    state = apply(state, Resign(seat))
    assert state.is_over
    assert state.winners == [1 - seat]
    assert list(state.places) == [2 if s == seat else 1 for s in range(2)]
    assert state.left == (seat,)
    with pytest.raises(WrongAction):
        apply(state, PlayCard(0, "8H"))
    with pytest.raises(WrongAction):
        apply(state, Resign(1 - seat))


def test_resigning_while_trump_is_being_named_or_out_of_turn():
    state = apply(example_game(), EXAMPLE_DEAL)
    assert state.turn == 0
    over = apply(state, Resign(1))
    assert over.winners == [0]


def test_a_resigner_loses_even_with_more_points():
    state = example_game(31)
    rng = random.Random(4)
    while max(state.totals) == 0 or state.totals[0] == state.totals[1]:
        state = play_out(apply(state, deal_cards(state, rng)))
    leader = 0 if state.totals[0] > state.totals[1] else 1
    state = apply(state, deal_cards(state, rng))
    state = apply(state, Resign(leader))
    assert state.winners == [1 - leader]


def test_resign_needs_a_real_seat():
    state = example_after_trick_1()
    with pytest.raises(WrongSeat):
        apply(state, Resign(2))


def test_a_resignation_is_not_possible_between_deals():
    state = play_out(example_after_trick_1())
    assert state.phase == "deal"
    with pytest.raises(WrongAction):
        apply(state, Resign(0))


@pytest.mark.parametrize(
    "before, over", [((19, 0), True), ((18, 0), False), ((19, 20), True)]
)
def test_reaching_the_target_exactly_ends_the_match(before, over):
    # The last trick of a deal at 9-8: seat 0 takes it, 10-8, two points.
    state = mid_deal(J, ["AS", "7C"], "S", tricks_done=17)
    state = replace(state, tricks=(9, 8), totals=before)
    state = play(state, "AS 7C")
    assert state.deals[-1].scores == (2, 0)
    assert state.totals == (before[0] + 2, before[1])
    assert state.is_over is over
    if over:
        assert state.winners == [0]
