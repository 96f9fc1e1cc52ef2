"""Rating windows and groups: the pure functions of ``matchmaking.grouping``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matchmaking.grouping import (
    WIDEN_PER_SECOND,
    WINDOW_MAX,
    WINDOW_START,
    Waiting,
    fits,
    form_groups,
    window,
)


def w(key: int, rating: int, waited: float = 0) -> Waiting:
    return Waiting(key=key, rating=rating, window=window(waited))


def keys(groups) -> list[list[int]]:
    return [[member.key for member in group] for group in groups]


# Windows


def test_the_window_starts_narrow_and_widens_with_every_second():
    assert (WINDOW_START, WIDEN_PER_SECOND, WINDOW_MAX) == (100, 10, 800)
    assert window(0) == 100
    assert window(1) == 110
    assert window(12.5) == 225
    assert window(50) == 600
    assert [window(s) for s in range(0, 80, 10)] == sorted(
        window(s) for s in range(0, 80, 10)
    )


def test_the_window_stops_widening_at_its_cap():
    assert window(70) == 800
    assert window(71) == 800
    assert window(3600) == 800


def test_a_clock_that_runs_backwards_gives_the_starting_window():
    assert window(-5) == WINDOW_START


@given(st.floats(0, 10_000), st.floats(0, 10_000))
def test_the_window_never_narrows(a, b):
    low, high = sorted((a, b))
    assert WINDOW_START <= window(low) <= window(high) <= WINDOW_MAX


# Fitting


def test_two_players_fit_within_the_narrower_window():
    old, new = w(1, 1500, waited=60), w(2, 1650)  # windows 700 and 100
    assert not fits(old, new)
    assert fits(old, w(3, 1600))
    assert fits(w(4, 1500, waited=5), w(5, 1650, waited=5))  # 150 each: the edge
    assert not fits(w(4, 1500, waited=5), w(5, 1651, waited=5))


@given(st.integers(0, 3000), st.integers(0, 3000), st.floats(0, 100), st.floats(0, 100))
def test_fitting_is_symmetric(ra, rb, wa, wb):
    assert fits(w(1, ra, wa), w(2, rb, wb)) == fits(w(2, rb, wb), w(1, ra, wa))


# Groups


def test_players_1500_and_2100_wait_until_both_windows_reach_600():
    def pair_after(seconds):
        return keys(form_groups([w(1, 1500, seconds), w(2, 2100, seconds)], 2))

    assert pair_after(0) == []
    assert pair_after(49) == []
    assert pair_after(50) == [[1, 2]]


def test_a_newcomer_is_not_pulled_beyond_their_own_window():
    # The 1500 has waited long enough to accept 2100; the 2100 just came.
    assert form_groups([w(1, 1500, 100), w(2, 2100, 0)], 2) == []


def test_the_oldest_players_are_grouped_first():
    pool = [w(1, 1500), w(2, 1520), w(3, 1540), w(4, 1510), w(5, 1530)]
    assert keys(form_groups(pool, 2)) == [[1, 2], [3, 4]]
    assert keys(form_groups(pool, 4)) == [[1, 2, 3, 4]]


def test_every_two_members_of_a_group_fit():
    # 1440 and 1560 both fit 1500, but not each other.
    pool = [w(1, 1500), w(2, 1440), w(3, 1560), w(4, 1490), w(5, 1520)]
    groups = form_groups(pool, 4)
    assert keys(groups) == [[1, 2, 4, 5]]
    for group in groups:
        assert all(fits(a, b) for a in group for b in group)


def test_a_group_is_found_where_the_first_fitting_partner_leads_nowhere():
    # Taking 1590 (the first to fit 1500) would leave no room for the rest.
    pool = [w(1, 1500), w(2, 1590), w(3, 1410), w(4, 1420), w(5, 1430)]
    assert keys(form_groups(pool, 4)) == [[1, 3, 4, 5]]


def test_a_player_without_a_group_does_not_hold_up_the_others():
    pool = [w(1, 2500), w(2, 1500), w(3, 1510)]
    assert keys(form_groups(pool, 2)) == [[2, 3]]


def test_too_few_players_make_no_group():
    assert form_groups([w(1, 1500)], 2) == []
    assert form_groups([w(n, 1500) for n in range(3)], 4) == []
    assert form_groups([], 2) == []


def test_a_group_has_at_least_two_players():
    with pytest.raises(ValueError):
        form_groups([w(1, 1500)], 1)


waiting_pools = st.lists(
    st.tuples(st.integers(1000, 2400), st.floats(0, 90)), max_size=40
).map(lambda rows: [w(n, rating, waited) for n, (rating, waited) in enumerate(rows)])


@given(waiting_pools, st.sampled_from([2, 4]))
def test_groups_are_whole_disjoint_and_fit(pool, size):
    groups = form_groups(pool, size)
    seen = [member.key for group in groups for member in group]
    assert len(seen) == len(set(seen)), "a player in two groups"
    assert set(seen) <= {p.key for p in pool}
    for group in groups:
        assert len(group) == size
        assert all(fits(a, b) for a in group for b in group)


@given(waiting_pools, st.sampled_from([2, 4]))
def test_no_group_is_left_among_the_players_left_over(pool, size):
    groups = form_groups(pool, size)
    taken = {member.key for group in groups for member in group}
    left = [p for p in pool if p.key not in taken]
    # Running it again on the rest finds nothing more.
    assert form_groups(left, size) == []
