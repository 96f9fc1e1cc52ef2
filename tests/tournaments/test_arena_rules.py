"""The arena's scoring, standings and pairing of free players, as pure
functions (tournaments.formats.arena)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.arena import (
    DRAW,
    LOSS,
    WIN,
    Game,
    game_points,
    on_streak,
    pair_free,
    standings,
)

results = st.lists(st.sampled_from([WIN, DRAW, LOSS]), max_size=30)


def test_two_wins_in_a_row_make_every_game_count_double_until_one_is_not_won():
    played = [WIN, WIN, WIN, WIN, DRAW, WIN, LOSS, WIN, WIN, LOSS]
    assert game_points(played) == [2, 2, 4, 4, 2, 2, 0, 2, 2, 0]


def test_a_draw_on_a_streak_counts_double_and_ends_it():
    assert game_points([WIN, WIN, DRAW, WIN]) == [2, 2, 2, 2]
    assert not on_streak([WIN, WIN, DRAW])


def test_a_loss_is_worth_nothing_on_a_streak_too():
    assert game_points([WIN, WIN, LOSS]) == [2, 2, 0]


def test_the_streak_is_lit_by_the_last_two_games():
    assert not on_streak([])
    assert not on_streak([WIN])
    assert on_streak([WIN, WIN])
    assert on_streak([LOSS, WIN, WIN, WIN])
    assert not on_streak([WIN, WIN, LOSS])


@given(results)
def test_each_game_scores_its_base_points_or_double(played):
    base = {WIN: 2, DRAW: 1, LOSS: 0}
    for result, points in zip(played, game_points(played), strict=True):
        assert points in (base[result], 2 * base[result])


@given(results, st.sampled_from([WIN, DRAW, LOSS]))
def test_another_game_never_takes_points_away(played, result):
    assert sum(game_points([*played, result])) >= sum(game_points(played))


@given(st.integers(min_value=2, max_value=30))
def test_a_run_of_wins_scores_two_two_then_four_each(wins):
    assert sum(game_points([WIN] * wins)) == 4 + 4 * (wins - 2)


def test_standings_go_by_points_then_performance():
    table = standings(
        {
            "ann": [Game(WIN, 1500), Game(LOSS, 1600)],
            "bob": [Game(WIN, 1400), Game(LOSS, 1400)],
            "cat": [Game(WIN, 1500), Game(WIN, 1500), Game(WIN, 1500)],
            "dan": [],
        }
    )
    assert [s.player for s in table] == ["cat", "ann", "bob", "dan"]
    cat, ann, bob, dan = table
    assert (cat.points, cat.streak, cat.wins) == (8, True, 3)
    assert ann.performance == Fraction(1500 + 400 + 1600 - 400, 2)
    assert bob.performance == 1400
    assert dan.performance is None and dan.games == 0


def test_a_player_without_a_game_comes_after_one_with_a_poor_performance():
    table = standings({"new": [], "weak": [Game(LOSS, 100)]})
    assert [s.player for s in table] == ["weak", "new"]


def test_free_players_are_paired_with_their_neighbours_in_the_standings():
    assert pair_free(list("abcdef"), {}, others_playing=True) == [
        ("a", "b"),
        ("c", "d"),
        ("e", "f"),
    ]


def test_nobody_meets_their_last_opponent_while_other_games_go_on():
    last = {"a": "b", "b": "a"}
    assert pair_free(["a", "b"], last, others_playing=True) == []
    assert pair_free(["a", "b", "c"], last, others_playing=True) == [("b", "c")]
    assert pair_free(list("abcd"), last, others_playing=True) == [
        ("a", "c"),
        ("b", "d"),
    ]


def test_a_rematch_is_better_than_waiting_once_nothing_else_is_played():
    last = {"a": "b", "b": "a"}
    assert pair_free(["a", "b"], last, others_playing=False) == [("a", "b")]
    # ... but only when no other pairing is left.
    assert pair_free(list("abcd"), last, others_playing=False) == [
        ("a", "c"),
        ("b", "d"),
    ]


@given(
    st.integers(min_value=0, max_value=14),
    st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13))),
    st.booleans(),
)
def test_pairings_are_disjoint_and_as_many_as_the_rules_allow(size, met, others):
    free = list(range(size))
    last = {}
    for a, b in met:
        if a != b and a < size and b < size:
            last[a], last[b] = b, a
    pairs = pair_free(free, last, others_playing=others)
    seated = [player for pair in pairs for player in pair]
    assert len(seated) == len(set(seated))
    assert set(seated) <= set(free)
    for a, b in pairs:
        assert a < b  # best standing first
        if others:
            assert last.get(a) != b
    if not others:
        # Any two may meet then: everyone is seated but an odd one out.
        assert len(pairs) == size // 2
