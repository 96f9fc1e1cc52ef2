"""Seating at tables of four, points for places and multi-table standings."""

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.multitable import (
    BOT,
    points_for_places,
    seat_round,
    standings,
    table_capacities,
)


def partitions(players, capacities):
    if not capacities:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, capacities[0] - 1):
        left = [p for p in rest if p not in others]
        for tail in partitions(left, capacities[1:]):
            yield [(first, *others), *tail]


def repeats(tables, history):
    return sum(
        frozenset((a, b)) in history
        for table in tables
        for a, b in itertools.combinations([p for p in table if p is not BOT], 2)
    )


@st.composite
def seating_case(draw, max_players=10):
    n = draw(st.integers(1, max_players))
    pairs = [frozenset(p) for p in itertools.combinations(range(n), 2)]
    history = frozenset(draw(st.sets(st.sampled_from(pairs)))) if pairs else set()
    return list(range(n)), history


def test_capacities_spread_bots_from_the_bottom():
    assert table_capacities(8) == [4, 4]
    assert table_capacities(10) == [4, 3, 3]
    assert table_capacities(5) == [3, 2]
    assert table_capacities(0) == []


def test_first_round_is_top_down():
    assert seat_round(list("abcdefghij")) == [
        tuple("abcd"),
        ("e", "f", "g", BOT),
        ("h", "i", "j", BOT),
    ]


def test_standings_tuples_accepted_and_rng_shuffles_seats_deterministically():
    table = [(p, 0) for p in "abcdefgh"]
    first = seat_round(table, rng=random.Random(3))
    assert first == seat_round(table, rng=random.Random(3))
    assert [set(t) for t in first] == [set("abcd"), set("efgh")]


def test_repeat_tablemates_split_up():
    history = {frozenset("ab"), frozenset("cd")}
    tables = seat_round(list("abcdefgh"), history)
    assert repeats(tables, history) == 0
    assert tables[0][0] == "a"


@given(seating_case(max_players=40))
def test_every_player_seated_exactly_once(case):
    players, history = case
    tables = seat_round(players, history)
    assert all(len(t) == 4 for t in tables)
    humans = [p for t in tables for p in t if p is not BOT]
    assert sorted(humans) == players
    assert len(tables) == -(-len(players) // 4)
    bots = [sum(p is BOT for p in t) for t in tables]
    assert max(bots, default=0) - min(bots, default=0) <= 1
    assert bots == sorted(bots)
    assert all(b < 4 for b in bots)


@given(seating_case(max_players=10))
def test_no_repeat_tablemates_when_brute_force_finds_a_seating(case):
    players, history = case
    tables = seat_round(players, history)
    best = min(
        repeats(p, history) for p in partitions(players, table_capacities(len(players)))
    )
    if best == 0:
        assert repeats(tables, history) == 0


def test_fallback_reduces_repeats_when_none_free():
    # Everyone has met everyone except within two disjoint blocks: impossible
    # to be repeat-free with 12 players if 0..3 all met 4..11.
    players = list(range(12))
    history = {
        frozenset(p) for p in itertools.combinations(players, 2) if p[0] < 6 <= p[1]
    }
    tables = seat_round(players, history)
    # Tables inside {0..5} or {6..11} are repeat-free; one table must mix.
    assert repeats(tables, history) == 4


def test_simulated_event_of_sixty_four_stays_repeat_free():
    rng = random.Random(5)
    players = list(range(64))
    history = set()
    results = []
    for _ in range(5):
        order = [s.player for s in standings(results)] or players
        tables = seat_round(order, history)
        assert repeats(tables, history) == 0
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                history.add(frozenset((a, b)))
            places = list(range(1, 5))
            rng.shuffle(places)
            results.append(
                [
                    (p, pl, rng.randint(-200, 900))
                    for p, pl in zip(table, places, strict=True)
                ]
            )


def test_points_for_places():
    assert points_for_places([1, 2, 3, 4]) == [4, 2, 1, 0]
    assert points_for_places([1, 1, 3, 4]) == [3, 3, 1, 0]
    assert points_for_places([2, 1, 2, 2]) == [1, 4, 1, 1]
    assert points_for_places([1, 1, 1, 1]) == [Fraction(7, 4)] * 4
    assert points_for_places([1, 2, 3, 3]) == [4, 2, Fraction(1, 2), Fraction(1, 2)]
    assert points_for_places({"x": 1, "y": 1}, scheme=(3, 1)) == {"x": 2, "y": 2}


@given(st.lists(st.integers(1, 4), min_size=1, max_size=4))
def test_shared_places_conserve_points_and_stay_ordered(places):
    points = points_for_places(places)
    assert sum(points) == sum((4, 2, 1, 0)[: len(places)])
    for i, j in itertools.permutations(range(len(places)), 2):
        if places[i] == places[j]:
            assert points[i] == points[j]
        if places[i] < places[j]:
            assert points[i] >= points[j]


def test_standings_ignore_bots_and_rank_by_points_then_score():
    results = [
        [("a", 1, 300), ("b", 2, 100), (BOT, 3, 50), (BOT, 4, 0)],
        [("c", 1, 500), (BOT, 2, 400), ("d", 3, 10), ("e", 4, -100)],
        [("a", 2, 50), ("b", 2, 60), ("d", 1, 5), (BOT, 4, 0)],
    ]
    table = standings(results)
    assert BOT not in [s.player for s in table]
    assert [(s.player, s.points) for s in table] == [
        ("a", Fraction(11, 2)),
        ("d", Fraction(5)),
        ("c", Fraction(4)),
        ("b", Fraction(7, 2)),
        ("e", Fraction(0)),
    ]
    assert table[0].score == 350 and table[0].tables == 2


def test_standings_tie_on_points_broken_by_score():
    results = [[("a", 1, 100), ("b", 1, 200), ("c", 3, 0), ("d", 4, 0)]]
    assert [s.player for s in standings(results)] == ["b", "a", "c", "d"]


def test_points_reject_nothing_but_empty_is_empty():
    assert points_for_places([]) == []
    with pytest.raises(TypeError):
        points_for_places(None)
