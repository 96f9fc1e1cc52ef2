"""Settlement by score, the pure rule (games.settlement): worked examples
and properties over random final totals, rates and deposits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.settlement import (
    POINTS_PER_COIN_CHOICES,
    pairwise_debts,
    score_settlement,
    settlement_payments,
    share_out,
)

# Worked by hand


def test_four_players_one_of_them_capped_at_the_deposit():
    """Totals 350, 120, -200, 50 at one coin per 10 points, deposit 100.

    Pairs (the lower total owes the higher, rounded down):
      seat 1 owes seat 0: (350 - 120) / 10 = 23
      seat 2 owes seat 0: (350 + 200) / 10 = 55
      seat 3 owes seat 0: (350 - 50) / 10 = 30
      seat 2 owes seat 1: (120 + 200) / 10 = 32
      seat 3 owes seat 1: (120 - 50) / 10 = 7
      seat 2 owes seat 3: (50 + 200) / 10 = 25
    Seat 2 owes 55 + 32 + 25 = 112 > 100: it pays exactly 100, in proportion
    55 : 32 : 25, i.e. 49.11, 28.57 and 22.32: whole coins 49 + 28 + 22 =
    99, and the missing coin goes to the largest fraction (.57, seat 1):
    49 to seat 0, 29 to seat 1, 22 to seat 3.
    Nets: seat 0 gets 23 + 49 + 30 = +102; seat 1 gets 29 + 7 and pays 23:
    +13; seat 2 pays 100: -100; seat 3 gets 22 and pays 30 + 7: -15.
    """
    totals = [350, 120, -200, 50]

    assert pairwise_debts(totals, 10) == [
        [0, 0, 0, 0],
        [23, 0, 0, 0],
        [55, 32, 0, 25],
        [30, 7, 0, 0],
    ]
    assert settlement_payments(totals, 100, 10)[2] == [49, 29, 0, 22]
    assert score_settlement(totals, 100, 10) == [102, 13, -100, -15]


def test_the_same_totals_with_a_deposit_nobody_reaches():
    # Seat 2's 112 are paid in full: 23 + 55 + 30, 32 + 7 - 23, -112, 25 - 37.
    assert score_settlement([350, 120, -200, 50], 500, 10) == [108, 16, -112, -12]


def test_equal_fractions_give_the_missing_coin_to_the_lower_seat():
    """Seat 0 owes 10 to each of the others (30) but has a deposit of 25:
    25 / 3 = 8.33 each, and the one coin left goes to seat 1."""
    assert score_settlement([0, 100, 100, 100], 25, 10) == [-25, 9, 8, 8]


@pytest.mark.parametrize(
    ("totals", "rate", "nets"),
    [
        ([0, 19], 10, [-1, 1]),  # 1.9 coins: 1
        ([-5, 4], 10, [0, 0]),  # 0.9 coins: none
        ([40, 40, 40, 40], 1, [0, 0, 0, 0]),
        ([21, 14], 1, [7, -7]),  # a Japanese match at one coin a point
        ([21, 14], 5, [1, -1]),
    ],
)
def test_the_rate_rounds_each_difference_down(totals, rate, nets):
    assert score_settlement(totals, 100, rate) == nets


def test_a_japanese_loser_pays_at_most_the_deposit():
    assert score_settlement([21, 3], 10, 1) == [10, -10]


def test_a_leaver_forfeits_the_deposit_to_those_who_stayed():
    """Seat 0 left with the best total: its 50 coins go 17, 17, 16 to seats
    1, 2, 3 and it is owed nothing. The others settle by score: seat 1 owes
    seat 2 20 and seat 3 10, seat 3 owes seat 2 10. Nets: -50; 17 - 30 =
    -13; 17 + 20 + 10 = +47; 16 + 10 - 10 = +16."""
    assert score_settlement([500, 100, 300, 200], 50, 10, left=[0]) == [
        -50,
        -13,
        47,
        16,
    ]


def test_a_japanese_resigner_loses_the_deposit_even_when_ahead():
    assert score_settlement([15, 5], 10, 1, left=[1]) == [10, -10]
    assert score_settlement([15, 5], 10, 1, left=[0]) == [-10, 10]


def test_when_everybody_left_nobody_counts_as_a_leaver():
    assert score_settlement([100, 0], 100, 10, left=[0, 1]) == [10, -10]


def test_shares_in_proportion_with_the_largest_remainders():
    assert share_out(100, [55, 32, 25]) == [49, 29, 22]
    assert share_out(10, [1, 1, 1]) == [4, 3, 3]
    assert share_out(10, [0, 3, 0]) == [0, 10, 0]
    assert share_out(0, [5, 5]) == [0, 0]


@pytest.mark.parametrize(
    ("deposit", "rate"), [(-1, 10), (10, 0), (10, -5), (10, 2.5), (True, 10)]
)
def test_nonsense_is_refused(deposit, rate):
    with pytest.raises(ValueError):
        score_settlement([0, 10], deposit, rate)


# Properties

totals_of_a_table = st.one_of(
    st.lists(st.integers(-1000, 3000), min_size=2, max_size=2),
    st.lists(st.integers(-1000, 3000), min_size=4, max_size=4),
)
rates = st.sampled_from(POINTS_PER_COIN_CHOICES)
deposits = st.sampled_from((10, 50, 100, 500, 1000)) | st.integers(1, 2000)


def uncapped_nets(totals: list[int], rate: int) -> list[int]:
    """What each seat wins or loses when every debt is paid in full."""

    def coins(mine: int, theirs: int) -> int:
        difference = abs(mine - theirs) // rate
        return difference if mine > theirs else -difference

    return [sum(coins(mine, theirs) for theirs in totals) for mine in totals]


@given(totals_of_a_table, deposits, rates)
def test_the_nets_add_up_to_zero(totals, deposit, rate):
    assert sum(score_settlement(totals, deposit, rate)) == 0


@given(totals_of_a_table, deposits, rates)
def test_nobody_loses_more_than_the_deposit(totals, deposit, rate):
    nets = score_settlement(totals, deposit, rate)
    assert min(nets) >= -deposit
    # Paid out of the escrow: never negative, and the whole pot.
    payouts = [deposit + net for net in nets]
    assert min(payouts) >= 0
    assert sum(payouts) == deposit * len(totals)


@given(totals_of_a_table, rates)
def test_with_deposits_nobody_reaches_every_pairwise_difference_is_paid(totals, rate):
    deposit = max(sum(row) for row in pairwise_debts(totals, rate))
    assert score_settlement(totals, deposit, rate) == uncapped_nets(totals, rate)


@given(totals_of_a_table, deposits, rates)
def test_the_top_total_never_loses_coins(totals, deposit, rate):
    nets = score_settlement(totals, deposit, rate)
    best = max(totals)
    for seat, total in enumerate(totals):
        if total == best:
            assert nets[seat] >= 0


@given(totals_of_a_table, rates)
def test_uncapped_a_higher_total_never_ends_with_fewer_coins(totals, rate):
    deposit = max(sum(row) for row in pairwise_debts(totals, rate))
    nets = score_settlement(totals, deposit, rate)
    for i, mine in enumerate(totals):
        for j, theirs in enumerate(totals):
            if mine > theirs:
                assert nets[i] >= nets[j]
            if mine == theirs:
                assert nets[i] == nets[j]


@given(totals_of_a_table, deposits, rates)
def test_each_payer_pays_their_debts_or_exactly_the_deposit(totals, deposit, rate):
    owed = pairwise_debts(totals, rate)
    paid = settlement_payments(totals, deposit, rate)
    for seat, debts in enumerate(owed):
        assert sum(paid[seat]) == min(sum(debts), deposit)
        # Nobody is paid more than they are owed.
        assert all(p <= o for p, o in zip(paid[seat], debts, strict=True))


@given(st.lists(st.integers(-1000, 3000), min_size=2, max_size=2), deposits, rates)
def test_two_players_settle_the_difference_up_to_the_deposit(totals, deposit, rate):
    low, high = sorted(totals)
    coins = min((high - low) // rate, deposit)
    nets = score_settlement(totals, deposit, rate)
    assert sorted(nets) == [-coins, coins]
    assert score_settlement(totals[::-1], deposit, rate) == nets[::-1]


@given(totals_of_a_table, deposits, rates, st.integers(-500, 500))
def test_only_the_differences_count(totals, deposit, rate, shift):
    shifted = [total + shift for total in totals]
    assert score_settlement(shifted, deposit, rate) == score_settlement(
        totals, deposit, rate
    )


@given(totals_of_a_table, rates, st.randoms(use_true_random=False))
def test_seats_do_not_matter_when_nobody_is_capped(totals, rate, random):
    deposit = max(sum(row) for row in pairwise_debts(totals, rate))
    order = list(range(len(totals)))
    random.shuffle(order)
    nets = score_settlement(totals, deposit, rate)
    moved = score_settlement([totals[k] for k in order], deposit, rate)
    assert moved == [nets[k] for k in order]


@given(
    st.lists(st.integers(-1000, 3000), min_size=4, max_size=4),
    deposits,
    rates,
    st.integers(0, 3),
)
def test_leaving_never_pays_better_than_staying(totals, deposit, rate, seat):
    stayed = score_settlement(totals, deposit, rate)
    left = score_settlement(totals, deposit, rate, left=[seat])
    assert left[seat] == -deposit <= stayed[seat]
    assert sum(left) == 0
    assert all(net >= -deposit for net in left)
