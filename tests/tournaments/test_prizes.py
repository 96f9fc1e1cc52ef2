"""Prize pool splits."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.prizes import split_prizes


def test_plain_split():
    places = {"a": 1, "b": 2, "c": 3, "d": 4}
    assert split_prizes(1000, [50, 30, 20], places) == {
        "a": 500,
        "b": 300,
        "c": 200,
        "d": 0,
    }


def test_shared_first_place_shares_first_and_second():
    places = {"a": 1, "b": 1, "c": 3}
    assert split_prizes(1000, [50, 30, 20], places) == {"a": 400, "b": 400, "c": 200}


def test_leftover_coins_go_to_best_places_first():
    places = {"a": 1, "b": 2, "c": 3}
    # exact: 33.33.., 33.33.., 33.33.. -> floors 33 each, 1 coin left for a.
    assert split_prizes(100, ["33.4", "33.3", "33.3"], places) == {
        "a": 34,
        "b": 33,
        "c": 33,
    }
    # Tied: b and c share places 2 and 3 (66.6 %) of 10 coins -> 3.33 each.
    places = {"a": 1, "b": 2, "c": 2}
    assert split_prizes(10, [40, 30, 30], places) == {"a": 4, "b": 3, "c": 3}
    assert split_prizes(11, [40, 30, 30], places) == {"a": 5, "b": 3, "c": 3}


def test_fewer_players_than_paid_places_still_pays_the_pool():
    assert split_prizes(90, [50, 30, 20], {"a": 1, "b": 2}) == {"a": 57, "b": 33}


def test_invalid_input():
    with pytest.raises(ValueError):
        split_prizes(100, [50, 30], {"a": 1})
    with pytest.raises(ValueError):
        split_prizes(100, [30, 70], {"a": 1})
    with pytest.raises(ValueError):
        split_prizes(-1, [100], {"a": 1})


percents = (
    st.lists(st.integers(0, 50), min_size=1, max_size=8)
    .filter(lambda xs: sum(xs) > 0)
    .map(lambda xs: sorted(xs, reverse=True))
)


@st.composite
def prize_case(draw):
    weights = draw(percents)
    # Scale to 100 exactly: keep the first entry as the balancing one.
    total = sum(weights)
    scaled = [w * 100 // total for w in weights]
    scaled[0] += 100 - sum(scaled)
    n = draw(st.integers(1, 12))
    places = draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    pool = draw(st.integers(0, 10**6))
    return pool, scaled, dict(enumerate(places))


@given(prize_case())
def test_pays_the_pool_exactly_and_is_monotone(case):
    pool, split, places = case
    payout = split_prizes(pool, split, places)
    assert set(payout) == set(places)
    assert all(isinstance(v, int) and v >= 0 for v in payout.values())
    assert sum(payout.values()) == pool
    for a in places:
        for b in places:
            if places[a] < places[b]:
                assert payout[a] >= payout[b]
            if places[a] == places[b]:
                assert abs(payout[a] - payout[b]) <= 1
