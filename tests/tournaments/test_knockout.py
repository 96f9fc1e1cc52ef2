"""Seeded single-elimination brackets."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.knockout import bracket, next_round, seed_order


def test_standard_order_for_eight():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket(list(range(1, 9))) == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_byes_go_to_top_seeds():
    assert bracket(["a", "b", "c", "d", "e", "f"]) == [
        ("a", None),
        ("d", "e"),
        ("b", None),
        ("c", "f"),
    ]


def test_next_round_and_final():
    first = bracket(["a", "b", "c", "d", "e", "f"])
    second = next_round(first, {"e", "c"})
    assert second == [("a", "e"), ("b", "c")]
    assert next_round(second, {"a", "b"}) == [("a", "b")]
    with pytest.raises(ValueError):
        next_round([("a", "b")], {"a"})
    with pytest.raises(ValueError):
        next_round(second, {"a", "e", "b"})


def test_too_few_players():
    with pytest.raises(ValueError):
        bracket(["a"])


def play_out(players, rng, favourite_wins=False):
    """Run the bracket to the end; return the final and all rounds."""
    rounds = [bracket(players)]
    while len(rounds[-1]) > 1:
        winners = set()
        for a, b in rounds[-1]:
            if b is None:
                continue
            if favourite_wins:
                winners.add(min(a, b))
            else:
                winners.add(rng.choice((a, b)))
        rounds.append(next_round(rounds[-1], winners))
    return rounds


@given(st.integers(2, 70), st.integers(0, 2**32))
def test_bracket_properties(n, seed):
    players = list(range(n))  # player i is seed i + 1
    first = bracket(players)
    size = len(first) * 2
    assert size >= n > size // 2 or n == size
    seated = [p for pair in first for p in pair if p is not None]
    assert sorted(seated) == players
    bye_players = sorted(a for a, b in first if b is None)
    assert bye_players == list(range(size - n))  # byes only to the top seeds
    assert all(a is not None for a, _ in first)

    rounds = play_out(players, random.Random(seed))
    for i, matches in enumerate(rounds):
        for match in matches:
            if {0, 1} <= set(match):
                assert i == len(rounds) - 1  # top two seeds meet only in the final
        if i:
            assert all(b is not None for _, b in matches)
            in_round = [p for m in matches for p in m]
            assert len(in_round) == len(set(in_round))


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 70))
def test_favourites_reach_the_final_and_semis(n):
    rounds = play_out(list(range(n)), None, favourite_wins=True)
    assert rounds[-1] == [(0, 1)]
    if n >= 4:
        assert sorted(p for m in rounds[-2] for p in m) == [0, 1, 2, 3]
