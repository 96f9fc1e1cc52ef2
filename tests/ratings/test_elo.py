"""The Elo arithmetic, with values worked out by hand."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings import elo


def test_expected_score():
    assert elo.expected(1500, 1500) == 0.5
    assert elo.expected(1600, 1400) == pytest.approx(0.7597, abs=1e-4)
    assert elo.expected(1400, 1600) == pytest.approx(0.2403, abs=1e-4)
    # 400 points is ten to one.
    assert elo.expected(1900, 1500) == pytest.approx(10 / 11)


@pytest.mark.parametrize(
    ("rating", "games", "k"),
    [
        (1500, 0, 40),
        (1500, 19, 40),
        (2600, 19, 40),  # provisional first, whatever the rating
        (1500, 20, 20),
        (2399, 500, 20),
        (2400, 20, 10),
        (2700, 90, 10),
    ],
)
def test_k_schedule(rating, games, k):
    assert elo.k_factor(rating, games) == k


@pytest.mark.parametrize(
    ("value", "whole"),
    [
        (2.5, 3),
        (-2.5, -3),
        (0.5, 1),
        (-0.5, -1),
        (0.49, 0),
        (-0.49, 0),
        (3.3333, 3),
        (-6.6667, -7),
        (0.0, 0),
        # Binary floating point just under a half still counts as the half.
        (2.5 - 1e-12, 3),
        (-(2.5 - 1e-12), -3),
    ],
)
def test_rounding_is_half_away_from_zero(value, whole):
    assert elo.round_half_away(value) == whole


def test_two_players_known_values():
    assert elo.two_player(1500, 1500, 1, k_a=20, k_b=20) == (10, -10)
    assert elo.two_player(1500, 1500, 0.5, k_a=20, k_b=20) == (0, 0)
    # 20 * (1 - 0.7597) = 4.81; an upset is worth 20 * 0.7597 = 15.19.
    assert elo.two_player(1600, 1400, 1, k_a=20, k_b=20) == (5, -5)
    assert elo.two_player(1600, 1400, 0, k_a=20, k_b=20) == (-15, 15)
    assert elo.two_player(1600, 1400, 0.5, k_a=20, k_b=20) == (-5, 5)
    # A provisional winner moves twice as far as an established loser.
    assert elo.two_player(1500, 1500, 1, k_a=40, k_b=20) == (20, -10)
    with pytest.raises(ValueError):
        elo.two_player(1500, 1500, 2, k_a=20, k_b=20)


def test_four_players_by_places():
    # Equal ratings, K=20: first beats three (3 x 0.5 x 20 / 3 = 10), second
    # beats two and loses one (0.5 x 20 / 3 = 3.33).
    assert elo.free_for_all([1500] * 4, [1, 2, 3, 4], [20] * 4) == [10, 3, -3, -10]
    assert elo.free_for_all_exact([1500] * 4, [1, 2, 3, 4], [20] * 4) == (
        pytest.approx([10, 10 / 3, -10 / 3, -10])
    )


def test_a_shared_place_is_a_draw_between_the_two():
    exact = elo.free_for_all_exact([1500] * 4, [1, 1, 3, 4], [20] * 4)
    assert exact == pytest.approx([20 / 3, 20 / 3, -10 / 3, -10])
    assert sum(exact) == pytest.approx(0)
    # Rounded one by one, a table can miss zero by a point (see elo's notes).
    assert elo.free_for_all([1500] * 4, [1, 1, 3, 4], [20] * 4) == [7, 7, -3, -10]
    # Everyone shares the place: nothing moves.
    assert elo.free_for_all([1500] * 4, [1, 1, 1, 1], [20] * 4) == [0, 0, 0, 0]


def test_four_players_with_different_ratings():
    ratings = [1700, 1500, 1500, 1300]
    # The favourite wins: E(1700 v 1500) = 0.7597, E(1700 v 1300) = 0.9091.
    deltas = elo.free_for_all(ratings, [1, 2, 3, 4], [20] * 4)
    favourite = 20 * ((1 - 0.7597) * 2 + (1 - 0.9091)) / 3
    assert deltas[0] == elo.round_half_away(favourite) == 4
    # The underdog wins instead: a big gain.
    assert elo.free_for_all(ratings, [4, 2, 3, 1], [20] * 4) == [-16, 3, -3, 16]


def test_pairs_play_as_sides_rated_at_their_mean():
    # Sides 0 (seats 0, 2) and 1 (seats 1, 3); side 0 wins.
    sides = [0, 1, 0, 1]
    assert elo.sides_game([1500] * 4, [1, 2, 1, 2], [20] * 4, sides) == [
        10,
        -10,
        10,
        -10,
    ]
    # Means 1600 (1700, 1500) against 1400 (1400, 1400): each winner +5 even
    # though one of them is rated like the losers.
    ratings = [1700, 1400, 1500, 1400]
    assert elo.sides_game(ratings, [1, 2, 1, 2], [20] * 4, sides) == [5, -5, 5, -5]
    # Each partner's own K: a provisional partner moves twice as far.
    assert elo.sides_game([1500] * 4, [2, 1, 2, 1], [40, 20, 20, 20], sides) == [
        -20,
        10,
        -10,
        10,
    ]
    # A drawn game between equal sides moves nobody.
    assert elo.sides_game([1500] * 4, [1, 1, 1, 1], [20] * 4, sides) == [0] * 4


def test_partners_must_share_their_place():
    with pytest.raises(ValueError):
        elo.sides_game([1500] * 4, [1, 2, 3, 4], [20] * 4, [0, 1, 0, 1])
    with pytest.raises(ValueError):
        elo.sides_game([1500] * 4, [1] * 4, [20] * 4, [0, 0, 0, 0])


def test_inputs_must_match():
    with pytest.raises(ValueError):
        elo.free_for_all([1500, 1500], [1, 2, 3], [20, 20])
    with pytest.raises(ValueError):
        elo.free_for_all([1500], [1], [20])


def test_game_changes_uses_the_k_schedule():
    # A newcomer (K 40) beats a 2000 (K 20): E = 0.0532, 40 x 0.9468 = 37.9
    # and 20 x 0.9468 = 18.9.
    assert elo.game_changes([1500, 2000], [0, 100], [1, 2]) == [38, -19]
    # Two masters (K 10).
    assert elo.game_changes([2400, 2400], [30, 30], [1, 2]) == [5, -5]
    assert elo.game_changes([1500] * 4, [50] * 4, [1, 2, 1, 2], [0, 1, 0, 1]) == [
        10,
        -10,
        10,
        -10,
    ]


ratings_st = st.integers(min_value=800, max_value=2800)


@st.composite
def tables(draw, n):
    ratings = draw(st.lists(ratings_st, min_size=n, max_size=n))
    places = draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    k = draw(st.sampled_from([10, 20, 40]))
    return ratings, places, [k] * n


@given(tables(2))
def test_two_players_with_equal_k_are_zero_sum(table):
    ratings, places, ks = table
    a, b = elo.free_for_all(ratings, places, ks)
    assert a + b == 0


@given(tables(4))
def test_four_players_with_equal_k_are_zero_sum_before_rounding(table):
    ratings, places, ks = table
    assert sum(elo.free_for_all_exact(ratings, places, ks)) == pytest.approx(
        0, abs=1e-9
    )
    # Each of the four roundings is off by half a point at most.
    assert abs(sum(elo.free_for_all(ratings, places, ks))) <= 2


@given(tables(4), st.booleans())
def test_pairs_with_equal_k_are_zero_sum(table, first_side_wins):
    ratings, _, ks = table
    places = [1, 2, 1, 2] if first_side_wins else [2, 1, 2, 1]
    assert sum(elo.sides_game(ratings, places, ks, [0, 1, 0, 1])) == 0


@given(tables(4))
def test_a_better_place_never_gains_less_against_the_same_field(table):
    ratings, _, ks = table
    better = elo.free_for_all_exact(ratings, [1, 2, 3, 4], ks)
    worse = elo.free_for_all_exact(ratings, [2, 1, 3, 4], ks)
    assert better[0] > worse[0]
