"""Swiss pairings and standings."""

import itertools
import random
from fractions import Fraction

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.formats.swiss import History, pair_round, standings


def perfect_matchings(players):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def rematch_free_exists(players, played):
    return fewest_rematches(players, played) == 0


def fewest_rematches(players, played) -> int:
    """The fewest rematches any pairing of ``players`` has (brute force)."""
    return min(
        sum(frozenset(pair) in played for pair in matching)
        for matching in perfect_matchings(list(players))
    )


@st.composite
def swiss_case(draw, max_players=10):
    n = draw(st.integers(2, max_players))
    scores = sorted(
        draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), reverse=True
    )
    pairs = [frozenset(p) for p in itertools.combinations(range(n), 2)]
    played = frozenset(draw(st.sets(st.sampled_from(pairs))))
    byes = frozenset(draw(st.sets(st.integers(0, n - 1))))
    return [(i, Fraction(s)) for i, s in enumerate(scores)], History(played, byes)


def test_first_round_folds_the_field():
    pairs, bye = pair_round([(p, 0) for p in "abcdefgh"])
    assert pairs == [("a", "e"), ("b", "f"), ("c", "g"), ("d", "h")]
    assert bye is None


def test_odd_group_floats_its_lowest_player_down():
    table = [("a", 2), ("b", 2), ("c", 2), ("d", 1), ("e", 1), ("f", 1)]
    pairs, bye = pair_round(table)
    assert pairs == [("a", "b"), ("c", "d"), ("e", "f")]
    assert bye is None


def test_bye_goes_to_lowest_ranked_player_without_one():
    table = [(p, 0) for p in "abcde"]
    _, bye = pair_round(table, History(frozenset(), frozenset({"e"})))
    assert bye == "d"
    _, bye = pair_round(table, History(frozenset(), frozenset("abcde")))
    assert bye == "e"


def test_rematch_is_avoided_by_changing_partners():
    played = frozenset({frozenset("ac"), frozenset("bd")})
    pairs, _ = pair_round([(p, 1) for p in "abcd"], History(played, frozenset()))
    assert pairs == [("a", "d"), ("b", "c")]


def test_score_groups_stay_together_when_a_pairing_without_floats_exists():
    # Round 4 of six players after these three rounds. A first-fit search
    # paired 4-2, 5-3, 1-0, floating four players; 4-0, 5-1, 2-3 has no
    # rematch either and keeps the two 2-point players together.
    rounds = [
        [(0, 2), (1, 3), (4, 5)],
        [(0, 3), (1, 4), (2, 5)],
        [(0, 5), (1, 2), (3, 4)],
    ]
    played = frozenset(frozenset(pair) for games in rounds for pair in games)
    table = [(4, 3), (5, 2), (1, 2), (2, 1), (0, 1), (3, 0)]
    pairs, bye = pair_round(table, History(played, frozenset()))
    assert pairs == [(4, 0), (5, 1), (2, 3)]
    assert bye is None


def test_rematch_allowed_only_when_unavoidable():
    played = frozenset({frozenset("ab")})
    pairs, _ = pair_round([("a", 1), ("b", 0)], History(played, frozenset()))
    assert pairs == [("a", "b")]


def test_rng_only_reorders_equal_scores_and_is_deterministic():
    table = [(p, 1 if p < "e" else 0) for p in "abcdefgh"]
    first = pair_round(table, rng=random.Random(7))
    assert first == pair_round(table, rng=random.Random(7))
    top = {p for pair in first[0][:2] for p in pair}
    assert top == set("abcd")


@given(swiss_case())
def test_every_player_appears_exactly_once(case):
    table, history = case
    pairs, bye = pair_round(table, history)
    seated = [p for pair in pairs for p in pair] + ([] if bye is None else [bye])
    assert sorted(seated) == [p for p, _ in table]
    assert (bye is None) == (len(table) % 2 == 0)


@given(swiss_case(max_players=9))
# Every bye leaves a rematch, and the bye to player 0 (the one without a
# bye) leaves two: the fewest rematches need a second bye.
@example(
    (
        [(p, Fraction(0)) for p in range(5)],
        History(
            frozenset(
                map(frozenset, [(0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)])
            ),
            frozenset({1, 2, 3, 4}),
        ),
    )
)
def test_rematch_free_whenever_brute_force_finds_one(case):
    # Rematches are avoided first, then second byes; the bye goes to the
    # lowest score group when a player there allows both.
    table, history = case
    players = [p for p, _ in table]
    score = dict(table)
    pairs, bye = pair_round(table, history)
    if len(players) % 2:
        fresh = [p for p in players if p not in history.byes] or players
        workable = [
            b
            for b in players
            if rematch_free_exists([p for p in players if p != b], history.played)
        ]
        fresh_workable = [b for b in workable if b in fresh]
        if fresh_workable:
            assert bye in fresh_workable
            lowest = min(score.values())
            if any(score[b] == lowest for b in fresh_workable):
                assert score[bye] == lowest
        elif workable:
            assert bye in workable
        else:
            # Every choice of bye leaves a rematch: the fewest rematches come
            # first (FIDE's C1 before C2), then a bye to a player without one.
            rematches = {
                b: fewest_rematches([p for p in players if p != b], history.played)
                for b in players
            }
            least = [b for b in players if rematches[b] == min(rematches.values())]
            assert bye in ([b for b in least if b in fresh] or least)
        feasible = bool(workable)
    else:
        feasible = rematch_free_exists(players, history.played)
    if feasible:
        assert all(frozenset(pair) not in history.played for pair in pairs)


def rematch_free_with(players, history, byes_allowed):
    """Brute force: is some bye among ``byes_allowed`` (any player in an even
    field) followed by a rematch-free pairing possible?"""
    if len(players) % 2 == 0:
        return rematch_free_exists(players, history.played)
    return any(
        rematch_free_exists([p for p in players if p != b], history.played)
        for b in byes_allowed
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 11), st.integers(0, 2**32))
def test_simulated_tournament_avoids_rematches_then_second_byes(n, seed):
    rng = random.Random(seed)
    players = list(range(n))
    results, byes, played = [], [], set()
    for _ in range(min(n - 1, 6)):
        table = [(s.player, s.score) for s in standings(results, byes, players)]
        history = History(frozenset(played), frozenset(byes))
        pairs, bye = pair_round(table, history)
        fresh = [p for p in players if p not in byes] or players
        avoidable = rematch_free_with(players, history, players)
        for a, b in pairs:
            assert not (avoidable and frozenset((a, b)) in played)
            played.add(frozenset((a, b)))
            results.append((a, b, rng.choice((a, b))))
        if bye is not None:
            if bye in byes:
                assert len(fresh) == n or not rematch_free_with(players, history, fresh)
            byes.append(bye)


def test_pairing_64_players_is_fast_and_rematch_free():
    rng = random.Random(1)
    players = list(range(64))
    results, byes, played = [], [], set()
    for _ in range(9):
        table = [(s.player, s.score) for s in standings(results, byes, players)]
        pairs, _ = pair_round(table, History(frozenset(played), frozenset(byes)))
        for a, b in pairs:
            assert frozenset((a, b)) not in played
            played.add(frozenset((a, b)))
            results.append((a, b, rng.choice((a, b))))


def test_standings_tie_breaks():
    results = [
        ("a", "b", "a"),
        ("c", "d", "c"),
        ("a", "c", "a"),
        ("b", "d", None),
    ]
    table = standings(results, byes=["e"])
    by_player = {s.player: s for s in table}
    assert by_player["a"].score == 2
    assert by_player["b"].score == Fraction(1, 2)
    assert by_player["e"].score == 1
    # c and e both have 1 point; c has Buchholz 2 + 1/2, e has none.
    assert by_player["c"].buchholz == Fraction(5, 2)
    assert by_player["e"].buchholz == 0
    # a beat b (1/2) and c (1): Sonneborn-Berger 3/2.
    assert by_player["a"].sonneborn_berger == Fraction(3, 2)
    # b drew with d (1/2): half of it.
    assert by_player["b"].sonneborn_berger == Fraction(1, 4)
    assert [s.player for s in table] == ["a", "c", "e", "b", "d"]


def test_sonneborn_berger_breaks_equal_buchholz():
    # a and b: one win each, equal Buchholz (3); a beat the stronger player p.
    results = [
        ("b", "q", "b"),
        ("b", "p", "p"),
        ("a", "p", "a"),
        ("a", "q", "q"),
        ("p", "r", "p"),
    ]
    table = standings(results)
    assert [s.player for s in table] == ["p", "a", "b", "q", "r"]
    assert table[1].buchholz == table[2].buchholz == 3
    assert (table[1].sonneborn_berger, table[2].sonneborn_berger) == (2, 1)
