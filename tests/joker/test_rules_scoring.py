"""RULES.md 2.7-2.9: deal scores, hisht options, home scoring, pulka premiums,
deductions, pairs, places, shared victory and leavers."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from joker import Bid, Resign, apply, legal_actions, make_rules, new_game
from joker.play import end_game
from joker.record import result_json
from joker.scoring import deal_score, places, pulka_premiums
from joker.shuffle import deal_cards
from joker.state import DealResult
from tests.joker.notation import (
    CLASSIC,
    FOUR_PLAYER,
    deal_from,
    mid_deal,
    play,
    play_out,
    pulka_outcome,
    smallest,
    start_at,
    table_score,
)

CLUB, TVALADZE, LIVE = FOUR_PLAYER

# --- 2.7 The scoring table ---------------------------------------------------

# (bid, took, cards, {profile: score})
TABLE = [
    # k = b = 0
    (0, 0, 1, {CLUB: 50, TVALADZE: 50, LIVE: 50}),
    (0, 0, 9, {CLUB: 50, TVALADZE: 50, LIVE: 50}),
    # k = b, 0 < b < n
    (1, 1, 2, {CLUB: 100, TVALADZE: 100, LIVE: 100}),
    (3, 3, 5, {CLUB: 200, TVALADZE: 200, LIVE: 200}),
    (8, 8, 9, {CLUB: 450, TVALADZE: 450, LIVE: 450}),
    # k = b = n
    (1, 1, 1, {CLUB: 100, TVALADZE: 100, LIVE: 100}),
    (5, 5, 5, {CLUB: 500, TVALADZE: 500, LIVE: 300}),
    (9, 9, 9, {CLUB: 900, TVALADZE: 900, LIVE: 500}),
    # hisht: b > 0, k = 0 (club default 200)
    (1, 0, 1, {CLUB: -200, TVALADZE: 0, LIVE: -200}),
    (4, 0, 9, {CLUB: -200, TVALADZE: 0, LIVE: -200}),
    # k != b otherwise: 10 per trick taken
    (3, 4, 5, {CLUB: 40, TVALADZE: 40, LIVE: 40}),
    (3, 1, 5, {CLUB: 10, TVALADZE: 10, LIVE: 10}),
    (0, 3, 5, {CLUB: 30, TVALADZE: 30, LIVE: 30}),
    (0, 9, 9, {CLUB: 90, TVALADZE: 90, LIVE: 90}),
    (1, 2, 2, {CLUB: 20, TVALADZE: 20, LIVE: 20}),
    (9, 8, 9, {CLUB: 80, TVALADZE: 80, LIVE: 80}),
]


@pytest.mark.parametrize("profile", FOUR_PLAYER)
@pytest.mark.parametrize("bid, took, cards, expected", TABLE)
def test_deal_score_table(profile, bid, took, cards, expected):
    rules = make_rules(profile)
    for pulka in range(4):
        assert deal_score(rules, bid, took, cards, pulka) == expected[profile]
        assert table_score(profile, {}, bid, took, cards, pulka) == expected[profile]


@pytest.mark.parametrize("profile", FOUR_PLAYER)
def test_seed_001_examples(profile):
    # "In a five-card deal bid 3 and take 3: 200. Bid 3, take 4: 40.
    # Bid 5 and take 5: 100 x 5 = 500." (seed 001, Tvaladze rules)
    rules = make_rules(profile)
    assert deal_score(rules, 3, 3, 5, 0) == 200
    assert deal_score(rules, 3, 4, 5, 0) == 40
    assert deal_score(rules, 5, 5, 5, 0) == (300 if profile == LIVE else 500)


HISHT = [
    # (option, pulka 0-based, cards, penalty)
    ("200", 0, 1, 200),
    ("200", 3, 9, 200),
    (200, 1, 9, 200),
    ("500", 0, 1, 500),
    ("500", 2, 5, 500),
    (500, 3, 9, 500),
    ("alternating", 0, 4, 200),
    ("alternating", 1, 9, 500),
    ("alternating", 2, 4, 200),
    ("alternating", 3, 9, 500),
]
HISHT += [("dynamic", pulka, n, 100 * n) for n in range(1, 10) for pulka in (0, 2)]
HISHT += [("dynamic", pulka, 9, 900) for pulka in (1, 3)]


@pytest.mark.parametrize("option, pulka, cards, penalty", HISHT)
def test_club_hisht_penalty_options(option, pulka, cards, penalty):
    rules = make_rules(CLUB, {"hisht_penalty": option})
    for bid in {1, cards}:
        assert deal_score(rules, bid, 0, cards, pulka) == -penalty
    # Only a hisht is affected.
    assert deal_score(rules, 0, 0, cards, pulka) == 50
    assert deal_score(rules, 2, 1, max(cards, 2), pulka) == 10


def test_tvaladze_has_no_hisht_penalty():
    rules = make_rules(TVALADZE)
    for cards in range(1, 10):
        for bid in range(1, cards + 1):
            assert deal_score(rules, bid, 0, cards, 1) == 0


def test_live_hisht_is_minus_200_whatever_the_cards():
    rules = make_rules(LIVE)
    for cards in range(1, 10):
        assert deal_score(rules, cards, 0, cards, 3) == -200


HOME = [
    # (bid, took, home-missing, home-bid)
    (0, 0, 5, 5),  # pass made
    (3, 3, 30, 30),  # bid made: 10 per trick
    (5, 5, 50, 50),  # even taking all
    (1, 1, 10, 10),
    (2, 4, 4, 4),  # over-take: +k
    (0, 2, 2, 2),
    (3, 1, -20, -30),  # under-take
    (3, 0, -30, -30),
    (5, 2, -30, -50),
    (9, 8, -10, -90),
]


@pytest.mark.parametrize("bid, took, missing, by_bid", HOME)
def test_live_home_scoring(bid, took, missing, by_bid):
    cards = 9
    assert (
        deal_score(make_rules(LIVE, {"scoring": "home-missing"}), bid, took, cards, 0)
        == missing
    )
    assert (
        deal_score(make_rules(LIVE, {"scoring": "home-bid"}), bid, took, cards, 0)
        == by_bid
    )
    for scoring, expected in (("home-missing", missing), ("home-bid", by_bid)):
        assert table_score(LIVE, {"scoring": scoring}, bid, took, cards, 0) == expected


# --- Deal scores through play -----------------------------------------------


@pytest.mark.parametrize(
    "profile, options, expected",
    [
        (CLUB, None, (-200, 50, 100, -200)),
        (CLUB, {"hisht_penalty": "500"}, (-500, 50, 100, -500)),
        (CLUB, {"hisht_penalty": "dynamic"}, (-100, 50, 100, -100)),
        (CLUB, {"hisht_penalty": "alternating"}, (-200, 50, 100, -200)),
        (TVALADZE, None, (0, 50, 100, 0)),
        (LIVE, None, (-200, 50, 100, -200)),
        (LIVE, {"scoring": "home-missing"}, (-10, 5, 10, -10)),
        (LIVE, {"scoring": "home-bid"}, (-10, 5, 10, -10)),
    ],
)
def test_the_record_md_example_deal(profile, options, expected):
    state = start_at(profile, 0, options)
    state = apply(state, deal_from("AH", "7C", "X1", "KD", turned="9S"))
    for seat, bid in ((1, 0), (2, 1), (3, 1), (0, 1)):
        state = apply(state, Bid(seat, bid))
    state = play(state, "7C X1:high KD AH")
    result = state.deals[0]
    assert result.tricks == (0, 0, 1, 0)
    assert result.scores == expected
    assert state.totals == expected


@pytest.mark.parametrize(
    "option, deal_index, penalty",
    [
        ("alternating", 6, 200),  # pulka 1, 7 cards
        ("alternating", 8, 500),  # pulka 2
        ("alternating", 12, 200),  # pulka 3
        ("alternating", 20, 500),  # pulka 4
        ("dynamic", 6, 700),
        ("dynamic", 0, 100),
        ("dynamic", 10, 900),
        ("dynamic", 15, 500),
        ("500", 12, 500),
    ],
)
def test_club_hisht_in_play_follows_pulka_and_deal_size(option, deal_index, penalty):
    n = CLASSIC[deal_index]
    # Last trick of the deal: seat 0 took the n - 1 earlier ones.
    state = mid_deal(
        CLUB,
        ["AS", "7C", "8C", "9C"],
        "S",
        tricks_done=n - 1,
        bids=(n - 1, 0, 0, 1),
        deal_index=deal_index,
        options={"hisht_penalty": option},
    )
    state = play(state, "AS 7C 8C 9C")
    assert state.deals[-1].tricks == (n, 0, 0, 0)
    assert state.deals[-1].scores == (10 * n, 50, 50, -penalty)


# --- 2.8 Premiums: the formula ---------------------------------------------


def deal(bids, tricks, scores):
    return DealResult(0, 9, "S", tuple(bids), tuple(tricks), (), tuple(scores))


# Seed 001: exact bids 0, 2, 1, 3 in four 9-card deals give 50, 150, 100, 200
# (500); all made, add the highest 200 once: 700.
SEED_001_PULKA = [
    deal((0, 1, 5, 2), (0, 3, 3, 3), (50, 30, 30, 30)),
    deal((2, 2, 2, 2), (2, 5, 1, 1), (150, 50, 10, 10)),
    deal((1, 0, 0, 9), (1, 1, 1, 6), (100, 10, 10, 60)),
    deal((3, 0, 0, 0), (3, 2, 2, 2), (200, 20, 20, 20)),
]


@pytest.mark.parametrize("profile", FOUR_PLAYER)
def test_seed_001_premium_example(profile):
    result = pulka_premiums(make_rules(profile), 1, SEED_001_PULKA)
    assert result.pulka == 2
    assert result.premium == (True, False, False, False)
    assert result.bonus == (200, 0, 0, 0)
    total = (
        sum(d.scores[0] for d in SEED_001_PULKA) + result.bonus[0] - result.deduction[0]
    )
    assert total == 700
    if profile == TVALADZE:
        assert result.deduction == (0, 0, 0, 0)
    else:
        # Exactly one on premium: the others lose their highest deal score.
        assert result.deduction == (0, 50, 30, 60)


def test_club_deductions_can_be_turned_off():
    result = pulka_premiums(make_rules(CLUB, {"deductions": False}), 0, SEED_001_PULKA)
    assert result.bonus == (200, 0, 0, 0)
    assert result.deduction == (0, 0, 0, 0)


@pytest.mark.parametrize("profile", FOUR_PLAYER)
def test_two_on_premium_nobody_loses(profile):
    deals = [
        deal((1, 0, 2, 0), (1, 0, 2, 6), (100, 50, 150, 60)),
        deal((0, 2, 0, 0), (0, 2, 3, 4), (50, 150, 30, 40)),
    ]
    result = pulka_premiums(make_rules(profile), 0, deals)
    assert result.premium == (True, True, False, False)
    assert result.bonus == (100, 150, 0, 0)
    assert result.deduction == (0, 0, 0, 0)


@pytest.mark.parametrize("profile", FOUR_PLAYER)
def test_nobody_on_premium_nothing_happens(profile):
    deals = [deal((1, 1, 1, 1), (0, 2, 2, 5), (-200, 20, 20, 50))]
    result = pulka_premiums(make_rules(profile), 0, deals)
    assert result.premium == (False,) * 4
    assert result.bonus == (0,) * 4
    assert result.deduction == (0,) * 4


@pytest.mark.parametrize("profile", [CLUB, LIVE])
def test_a_deduction_is_nothing_when_the_highest_score_is_not_positive(profile):
    deals = [
        deal((0, 1, 1, 2), (0, 0, 0, 9), (50, -200, 0, 90)),
        deal((1, 1, 2, 0), (1, 0, 0, 8), (100, -200, -500, 80)),
    ]
    result = pulka_premiums(make_rules(profile), 0, deals)
    assert result.premium == (True, False, False, False)
    assert result.bonus == (100, 0, 0, 0)
    assert result.deduction == (0, 0, 0, 90)


def test_premium_bonus_is_the_highest_deal_score_even_if_negative_elsewhere():
    deals = [
        deal((0, 0, 0, 5), (0, 0, 0, 9), (50, 50, 50, 90)),
        deal((0, 0, 0, 5), (0, 0, 0, 9), (50, 50, 50, 90)),
    ]
    # Three on premium: each adds their best once; nobody loses.
    result = pulka_premiums(make_rules(CLUB), 0, deals)
    assert result.premium == (True, True, True, False)
    assert result.bonus == (50, 50, 50, 0)
    assert result.deduction == (0, 0, 0, 0)


@pytest.mark.parametrize("scoring", ["home-missing", "home-bid"])
def test_home_scoring_premiums_bring_nothing(scoring):
    result = pulka_premiums(make_rules(LIVE, {"scoring": scoring}), 0, SEED_001_PULKA)
    assert result.premium == (True, False, False, False)
    assert result.bonus == (0, 0, 0, 0)
    assert result.deduction == (0, 0, 0, 0)


PAIRS = [
    # (premium pattern, deductions) -> deduction (bonus is each premium's best)
    # one partner of team 0+2 on premium: team 1+3 loses; seat 2 is exempt
    ((True, False, False, False), True, (0, 50, 0, 60)),
    # both partners of team 0+2
    ((True, False, True, False), True, (0, 50, 0, 60)),
    # one of team 1+3
    ((False, False, False, True), True, (70, 0, 80, 0)),
    ((False, True, False, True), True, (70, 0, 80, 0)),
    # players of both teams: nobody loses
    ((True, True, False, False), True, (0, 0, 0, 0)),
    ((True, True, True, True), True, (0, 0, 0, 0)),
    ((False, True, True, False), True, (0, 0, 0, 0)),
    # nobody on premium
    ((False, False, False, False), True, (0, 0, 0, 0)),
    # deductions off
    ((True, False, False, False), False, (0, 0, 0, 0)),
    ((True, False, True, False), False, (0, 0, 0, 0)),
]


@pytest.mark.parametrize("pattern, deductions, expected", PAIRS)
def test_pairs_premium_rule(pattern, deductions, expected):
    best = (70, 50, 80, 60)
    bids = tuple(1 if on else 2 for on in pattern)
    tricks = (1, 1, 1, 1)
    deals = [deal(bids, tricks, best), deal(bids, tricks, (10, 10, 10, 10))]
    rules = make_rules(CLUB, {"pairs": True, "deductions": deductions})
    result = pulka_premiums(rules, 0, deals)
    assert result.premium == pattern
    assert result.bonus == tuple(
        b if on else 0 for b, on in zip(best, pattern, strict=True)
    )
    assert result.deduction == expected
    assert list(result.deduction) == pulka_outcome(CLUB, rules.options, deals)[2]


def test_without_pairs_the_count_rule_applies_to_the_same_pattern():
    # Seats 0 and 2 on premium: two players, so nobody loses (no team rule).
    best = (70, 50, 80, 60)
    deals = [deal((1, 2, 1, 2), (1, 1, 1, 6), best)]
    result = pulka_premiums(make_rules(CLUB), 0, deals)
    assert result.deduction == (0, 0, 0, 0)


# --- 2.8 Premiums through play ----------------------------------------------


def plan_bids(state, tricks, exact):
    """Bids making the seats in ``exact`` exact and every other seat miss,
    with the dealer's restriction respected."""
    n = state.cards_each
    options = []
    for seat in range(4):
        if seat in exact:
            options.append([tricks[seat]])
        else:
            options.append([b for b in range(n + 1) if b != tricks[seat]])
    for combo in itertools.product(*options):
        if sum(combo) != n:
            return combo
    raise AssertionError("no bids fit")


def play_planned_deal(state, deal, exact):
    """Play ``deal`` with the fixed policy; the seats in ``exact`` bid exactly
    the tricks they will take, the others miss."""
    trial = apply(state, deal)
    while trial.phase != "card":
        trial = apply(trial, smallest(trial))  # trump by the policy, bids 0
    tricks = play_out(trial).deals[-1].tricks
    wanted = plan_bids(state, tricks, exact)
    state = apply(state, deal)
    while state.phase != "card":
        if state.phase == "bid":
            state = apply(state, Bid(state.turn, wanted[state.turn]))
        else:
            state = apply(state, smallest(state))
    state = play_out(state)
    assert state.deals[-1].tricks == tricks
    return state


def play_planned_pulka(state, exact_by_deal, seed=0):
    rng = random.Random(seed)
    for exact in exact_by_deal:
        state = play_planned_deal(state, deal_cards(state, rng), exact)
    return state


def check_pulka(state, profile, options, first_deal):
    deals = state.deals[first_deal:]
    premium, bonus, deduction = pulka_outcome(profile, options, deals)
    pulka = state.pulkas[-1]
    assert list(pulka.premium) == premium
    assert list(pulka.bonus) == bonus
    assert list(pulka.deduction) == deduction
    return pulka


def nines(options=None):
    return new_game(make_rules(CLUB, {"schedule": "nines", **(options or {})}), 0)


def test_club_one_player_on_premium_the_others_lose_their_best():
    state = play_planned_pulka(nines(), [{1}, {1, 2}, {1, 3}, {1}])
    pulka = check_pulka(state, CLUB, {}, 0)
    assert pulka.premium == (False, True, False, False)
    best = [max(d.scores[s] for d in state.deals) for s in range(4)]
    assert pulka.bonus == (0, best[1], 0, 0)
    assert pulka.deduction == tuple(max(best[s], 0) if s != 1 else 0 for s in range(4))
    dealt = [sum(d.scores[s] for d in state.deals) for s in range(4)]
    assert list(state.totals) == [
        dealt[s] + pulka.bonus[s] - pulka.deduction[s] for s in range(4)
    ]


def test_club_two_players_on_premium_nobody_loses():
    state = play_planned_pulka(nines(), [{0, 2}, {0, 2}, {0, 2}, {0, 2}], seed=3)
    pulka = check_pulka(state, CLUB, {}, 0)
    assert pulka.premium == (True, False, True, False)
    assert pulka.deduction == (0, 0, 0, 0)
    assert pulka.bonus[0] > 0 and pulka.bonus[2] > 0


def test_club_pairs_partner_exempt_and_team_totals():
    options = {"pairs": True}
    state = play_planned_pulka(nines(options), [{0}, {0, 1}, {0, 3}, {0}], seed=5)
    pulka = check_pulka(state, CLUB, options, 0)
    assert pulka.premium == (True, False, False, False)
    assert pulka.deduction[0] == 0 and pulka.deduction[2] == 0
    best = [max(d.scores[s] for d in state.deals) for s in range(4)]
    assert pulka.deduction[1] == max(best[1], 0)
    assert pulka.deduction[3] == max(best[3], 0)


@pytest.mark.parametrize(
    "profile, options",
    [
        (LIVE, {}),
        (LIVE, {"scoring": "home-missing"}),
        (LIVE, {"scoring": "home-bid"}),
        (TVALADZE, {}),
        (CLUB, {"deductions": False}),
        (CLUB, {"hisht_penalty": "alternating"}),
    ],
)
def test_first_pulka_premiums_through_play(profile, options):
    state = new_game(make_rules(profile, options), 2)
    plan = [{3}, {3, 0}, {3}, {3, 1}, {3}, {3}, {3, 2}, {3}]
    state = play_planned_pulka(state, plan, seed=11)
    assert len(state.deals) == 8 and len(state.pulkas) == 1
    pulka = check_pulka(state, profile, options, 0)
    assert pulka.premium == (False, False, False, True)
    dealt = [sum(d.scores[s] for d in state.deals) for s in range(4)]
    assert list(state.totals) == [
        dealt[s] + pulka.bonus[s] - pulka.deduction[s] for s in range(4)
    ]
    for d in state.deals:
        for s in range(4):
            n, pulka_index = d.cards, 0
            assert d.scores[s] == table_score(
                profile, options, d.bids[s], d.tricks[s], n, pulka_index
            )


def find_deal(state, seat, wanted, seed):
    """A shuffled deal in which ``seat`` takes ``wanted`` tricks under the
    fixed policy."""
    rng = random.Random(seed)
    for _ in range(500):
        deal = deal_cards(state, rng)
        trial = apply(state, deal)
        while trial.phase != "card":
            trial = apply(trial, smallest(trial))
        if play_out(trial).deals[-1].tricks[seat] == wanted:
            return deal
    raise AssertionError("no such deal")


def test_seed_001_premium_example_through_play():
    # Tvaladze, pulka 2: seat 1 bids 0, 2, 1, 3 in the four 9-card deals and
    # makes every bid: 50 + 150 + 100 + 200 = 500, plus the highest 200 once.
    state = new_game(make_rules(TVALADZE), 0)
    while len(state.deals) < 8:
        state = play_out(
            apply(state, deal_cards(state, random.Random(len(state.deals))))
        )
    before = state.totals[1]
    for wanted in (0, 2, 1, 3):
        deal = find_deal(state, 1, wanted, seed=100 + len(state.deals))
        state = play_planned_deal(state, deal, {1})
    scores = [d.scores[1] for d in state.deals[8:12]]
    assert scores == [50, 150, 100, 200]
    pulka = state.pulkas[1]
    assert pulka.pulka == 2
    assert pulka.premium[1] is True
    assert pulka.bonus[1] == 200
    assert pulka.deduction == (0, 0, 0, 0)
    assert state.totals[1] - before == 700


def test_one_miss_loses_the_premium_but_keeps_the_points():
    state = new_game(make_rules(TVALADZE), 0)
    while len(state.deals) < 8:
        state = play_out(
            apply(state, deal_cards(state, random.Random(len(state.deals))))
        )
    before = state.totals[1]
    plan = [{1}, {1}, {1}, set()]
    for exact in plan:
        deal = deal_cards(state, random.Random(len(state.deals)))
        state = play_planned_deal(state, deal, exact)
    pulka = state.pulkas[1]
    assert pulka.premium[1] is False
    assert pulka.bonus[1] == 0
    assert state.totals[1] - before == sum(d.scores[1] for d in state.deals[8:12])


# --- 2.9 Places, shared victory, leavers ----------------------------------


PLACES = [
    ((1490, 670, 580, 1490), (), None, [1, 3, 4, 1]),
    ((100, 100, 100, 100), (), None, [1, 1, 1, 1]),
    ((10, 20, 30, 40), (), None, [4, 3, 2, 1]),
    ((-50, 0, 0, -50), (), None, [3, 1, 1, 3]),
    # leavers rank below every seat without a leaver, by total among them
    ((900, 50, 0, -10), (0,), None, [4, 1, 2, 3]),
    ((900, 50, 0, -10), (0, 2), None, [3, 1, 4, 2]),
    ((900, 50, 900, -10), (0, 2), None, [3, 1, 3, 2]),
    # pairs: teams 0+2 and 1+3 by team totals
    ((100, 300, 250, 20), (), [0, 1, 0, 1], [1, 3, 1, 3]),
    ((100, 300, 50, 50), (), [0, 1, 0, 1], [3, 1, 3, 1]),
    ((100, 200, 200, 100), (), [0, 1, 0, 1], [1, 1, 1, 1]),
    # pairs: a leaver's team ranks below
    ((1000, 0, 1000, 0), (2,), [0, 1, 0, 1], [3, 1, 3, 1]),
]


@pytest.mark.parametrize("totals, left, teams, expected", PLACES)
def test_places(totals, left, teams, expected):
    assert places(list(totals), left, teams) == expected


def finish_game(state, seed=0, resign=None):
    rng = random.Random(seed)
    while not state.is_over:
        if (
            resign is not None
            and len(state.deals) == resign[1]
            and state.phase == "bid"
        ):
            if resign[0] not in state.left:
                state = apply(state, Resign(resign[0]))
        if state.phase == "deal":
            state = apply(state, deal_cards(state, rng))
        else:
            state = apply(state, smallest(state))
    return state


@pytest.mark.parametrize("profile", FOUR_PLAYER)
def test_a_complete_game_ranks_by_totals(profile):
    options = {"schedule": "nines"} if profile == CLUB else None
    state = finish_game(new_game(make_rules(profile, options), 1), seed=4)
    assert len(state.deals) == (16 if profile == CLUB else 24)
    assert len(state.pulkas) == 4
    out = result_json(state)
    assert out["complete"] is True and "next" not in out
    totals = out["totals"]
    assert out["places"] == [1 + sum(t > totals[s] for t in totals) for s in range(4)]
    assert out["winners"] == [s for s in range(4) if totals[s] == max(totals)]
    assert legal_actions(state) == []


def test_a_complete_pairs_game_ranks_by_team():
    state = finish_game(nines({"pairs": True}), seed=8)
    out = result_json(state)
    t = out["totals"]
    assert out["team_totals"] == [t[0] + t[2], t[1] + t[3]]
    a, b = out["team_totals"]
    if a == b:
        assert out["places"] == [1, 1, 1, 1]
    elif a > b:
        assert out["places"] == [1, 3, 1, 3]
        assert out["winners"] == [0, 2]
    else:
        assert out["places"] == [3, 1, 3, 1]
        assert out["winners"] == [1, 3]


@pytest.mark.parametrize("profile", FOUR_PLAYER)
def test_a_leaver_keeps_the_seat_and_ranks_last(profile):
    options = {"schedule": "nines"} if profile == CLUB else None
    state = new_game(make_rules(profile, options), 0)
    state = finish_game(state, seed=2, resign=(2, 1))
    assert state.left == (2,)
    out = result_json(state)
    assert out["left"] == [2]
    # The seat played on to the end.
    assert len(state.deals) == len(state.rules.schedule)
    assert out["places"][2] == 4
    others = [out["totals"][s] for s in (0, 1, 3)]
    for s in (0, 1, 3):
        assert out["places"][s] == 1 + sum(t > out["totals"][s] for t in others)


@pytest.mark.parametrize(
    "options, totals, places_, winners",
    [
        ({}, (1490, 670, 580, 1490), [1, 3, 4, 1], [0, 3]),
        ({}, (300, 300, 300, 300), [1, 1, 1, 1], [0, 1, 2, 3]),
        ({"pairs": True}, (100, 200, 200, 100), [1, 1, 1, 1], [0, 1, 2, 3]),
        ({"pairs": True}, (500, 200, -100, 100), [1, 3, 1, 3], [0, 2]),
    ],
)
def test_shared_victory_in_the_result(options, totals, places_, winners):
    state = replace(nines(options), totals=totals)
    state = end_game(state)
    out = result_json(state)
    assert out["complete"] is True
    assert out["places"] == places_
    assert out["winners"] == winners
    if options.get("pairs"):
        assert out["team_totals"] == [totals[0] + totals[2], totals[1] + totals[3]]
