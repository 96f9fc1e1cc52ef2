"""Swiss pairings against a brute-force optimum, in FIDE's order of
criteria (C.04.3): no avoidable rematch, then no avoidable second bye, then
the bye in the lowest group, then the smallest sum of squared score
differences, then the fewest floaters.

The optimum here is a dynamic programme over the subsets of up to twelve
players, with its own measures of a pairing: none of the pairer's weights."""

import itertools
import random
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.swiss import (
    BYE,
    Field,
    History,
    pair_round,
    standings,
    weights_by_tier,
)


def edge_measures(a, b, score, history):
    """(rematches, second byes, byes above the lowest score, squared score
    differences, floaters) of one pair, or of the bye when ``b`` is None.
    Scores are counted in half points, so squares are whole numbers."""
    halves = {player: int(2 * s) for player, s in score.items()}
    lowest = min(halves.values())
    if b is None:
        everyone_had_one = len(history.byes) == len(score)
        second = int(a in history.byes and not everyone_had_one)
        # FIDE's score difference of a bye: from one point below the lowest.
        above = halves[a] - lowest
        return (0, second, int(above != 0), (above + 2) ** 2, 0)
    gap = halves[a] - halves[b]
    return (int(frozenset((a, b)) in history.played), 0, 0, gap * gap, int(gap != 0))


def add(x, y):
    return tuple(p + q for p, q in zip(x, y, strict=True))


def best_measures(score, history):
    """The lexicographically least measures of any pairing, by brute force:
    the first of the remaining players is paired with each of the others
    (or the bye) in turn, the rest solved the same way and remembered."""
    nodes = [*score, None] if len(score) % 2 else list(score)
    cost = {}
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            cost[a, b] = edge_measures(a, b, score, history)

    @cache
    def best(rest):
        if not rest:
            return (0,) * 5
        first, others = rest[0], rest[1:]
        return min(
            add(cost[first, other], best(others[:i] + others[i + 1 :]))
            for i, other in enumerate(others)
        )

    return best(tuple(nodes))


def pairing_measures(pairs, bye, score, history):
    total = (0,) * 5
    for a, b in pairs:
        total = add(total, edge_measures(a, b, score, history))
    if bye is not None:
        total = add(total, edge_measures(bye, None, score, history))
    return total


@st.composite
def histories(draw, max_players=12):
    """A field of up to twelve players with scores in half points, and any
    pairs already played and byes already given."""
    n = draw(st.integers(2, max_players))
    halves = draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))
    scores = sorted((Fraction(h, 2) for h in halves), reverse=True)
    pairs = [frozenset(p) for p in itertools.combinations(range(n), 2)]
    played = frozenset(draw(st.sets(st.sampled_from(pairs), max_size=3 * n)))
    byes = frozenset(draw(st.sets(st.integers(0, n - 1))))
    return list(enumerate(scores)), History(played, byes)


@given(histories())
def test_pairing_is_the_brute_force_optimum_in_fides_order(case):
    table, history = case
    score = dict(table)
    pairs, bye = pair_round(table, history)
    ours = pairing_measures(pairs, bye, score, history)
    best = best_measures(score, history)
    # Rematches, then second byes: none that a pairing could avoid.
    assert ours[:2] == best[:2]
    # No larger sum of squared score differences than the optimum's (with
    # the bye in the lowest group whenever it can be), then the fewest
    # floaters among those.
    assert ours == best


@given(st.integers(3, 10), st.integers(0, 2**32 - 1))
def test_simulated_tournaments_stay_optimal_round_after_round(n, seed):
    rng = random.Random(seed)
    players = list(range(n))
    results, byes, played = [], [], set()
    for _ in range(min(n - 1, 5)):
        table = [(s.player, s.score) for s in standings(results, byes, players)]
        history = History(frozenset(played), frozenset(byes))
        pairs, bye = pair_round(table, history)
        score = dict(table)
        assert pairing_measures(pairs, bye, score, history) == best_measures(
            score, history
        )
        for a, b in pairs:
            played.add(frozenset((a, b)))
            results.append((a, b, rng.choice((a, b, None))))
        if bye is not None:
            byes.append(bye)


def test_two_short_floats_beat_one_long_one():
    # One player floating two groups (a v d, b v c: 2² = 4) costs more than
    # two floating one group each (a v b, c v d: 1 + 1). The fewest floaters
    # would be the former; FIDE's PSD comes first.
    pairs, bye = pair_round([("a", 2), ("b", 1), ("c", 1), ("d", 0)])
    assert pairs == [("a", "b"), ("c", "d")]
    assert bye is None


def test_fresh_bye_when_a_rematch_free_pairing_allows_it():
    # Five players on 0; byes already to 1, 2, 3 and 4. Player 0 takes the
    # bye and 1 v 4, 2 v 3 is rematch-free.
    played = frozenset(frozenset(p) for p in [{1, 2}, {0, 1}, {0, 2}, {2, 4}, {1, 3}])
    table = [(p, 0) for p in range(5)]
    assert pair_round(table, History(played, frozenset({1, 2, 3, 4}))) == (
        [(1, 4), (2, 3)],
        0,
    )


def test_second_bye_rather_than_a_rematch():
    # Three players; 1 and 2 have had byes and met. A fresh bye (0) forces
    # the rematch 1 v 2. C1 comes before C2: the lowest-ranked player who
    # allows a rematch-free round, 2, has a second bye.
    played = frozenset({frozenset((1, 2))})
    table = [(p, 0) for p in range(3)]
    assert pair_round(table, History(played, frozenset({1, 2}))) == ([(0, 1)], 2)


# The largest penalty of each tier in a 64-player round after 9 rounds:
# one rematch, one second bye, one high bye, a squared difference of
# (9 + 1)² for a bye, one floater, a bye 63 ranks from the bottom, a pair
# 63 ranks apart, one pair in the same half.
LARGEST_AT_64 = (1, 1, 1, 100, 1, 63, 63, 1)


@pytest.mark.parametrize("tier", range(len(LARGEST_AT_64)))
def test_one_unit_of_a_tier_outweighs_everything_below_it_at_64_players(tier):
    # Two perfect matchings of 64 players (32 edges each, none shared): A
    # has a single unit of ``tier``; B is clean above it and carries the
    # largest penalty of every lower tier on every edge. B must weigh more.
    a_edges = [(2 * i, 2 * i + 1) for i in range(32)]
    b_edges = [(2 * i + 1, (2 * i + 2) % 64) for i in range(32)]
    zero = (0,) * len(LARGEST_AT_64)
    lower = tuple(v if t > tier else 0 for t, v in enumerate(LARGEST_AT_64))
    one = tuple(int(t == tier) for t in range(len(LARGEST_AT_64)))
    penalties = {edge: zero for edge in a_edges}
    penalties[a_edges[0]] = one
    penalties.update({edge: lower for edge in b_edges})
    penalties[(0, 2)] = LARGEST_AT_64  # sets every tier's bound
    weights = weights_by_tier(penalties, 32)
    assert sum(weights[e] for e in b_edges) > sum(weights[e] for e in a_edges)


def test_weights_order_real_64_player_pairings_lexicographically():
    # A 64-player field after five random rounds: for random perfect
    # matchings, heavier always means lexicographically fewer penalties.
    rng = random.Random(5)
    players = list(range(64))
    results, byes, played = [], [], set()
    for _ in range(5):
        table = [(s.player, s.score) for s in standings(results, byes, players)]
        pairs, _ = pair_round(table, History(frozenset(played), frozenset(byes)))
        for a, b in pairs:
            played.add(frozenset((a, b)))
            results.append((a, b, rng.choice((a, b))))
    table = [(s.player, s.score) for s in standings(results, byes, players)]
    rank = {player: i for i, (player, _) in enumerate(table)}
    field = Field(
        [score for _, score in table],
        {frozenset(rank[p] for p in pair) for pair in played},
        set(),
    )
    penalties = field.penalties()
    weights = weights_by_tier(penalties, 32)
    for _ in range(300):
        order = rng.sample(range(64), 64)
        x = [tuple(sorted(order[i : i + 2])) for i in range(0, 64, 2)]
        order = rng.sample(range(64), 64)
        y = [tuple(sorted(order[i : i + 2])) for i in range(0, 64, 2)]
        totals_x = [sum(t) for t in zip(*(penalties[e] for e in x), strict=True)]
        totals_y = [sum(t) for t in zip(*(penalties[e] for e in y), strict=True)]
        heavier = sum(weights[e] for e in x) - sum(weights[e] for e in y)
        assert (heavier > 0) == (totals_x < totals_y)
        assert (heavier == 0) == (totals_x == totals_y)
    assert BYE not in {b for _, b in penalties}  # an even field has no bye
