"""Tables of four for Joker tournaments.

:func:`seat_round` fills tables top-down by standings (table 1 takes the four
best players, ...). It then avoids players meeting a previous tablemate again:
an exact backtracking search (each table takes the best unseated player plus
the nearest-ranked compatible players) finds a repeat-free seating whenever
one exists within a search budget; otherwise a local search swaps players
between tables to cut the number of repeated tablemate pairs, preferring swaps
that move players the least from their standings table.

When the field is not a multiple of four the spare seats are filled with the
:data:`BOT` placeholder, spread as evenly as possible starting from the bottom
table (so with fewer bots than tables the top tables stay all-human). Bots take
places at the table, which decide the humans' places, but bots score nothing in
:func:`standings`.

:func:`points_for_places` turns finishing places into tournament points; tied
players share the points of the places they cover, as exact fractions.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import NamedTuple

from tournaments.formats._places import place_groups

Player = Hashable
TABLE_SIZE = 4
DEFAULT_SCHEME = (4, 2, 1, 0)
SEARCH_BUDGET = 100_000


class _Bot:
    """Marker for a seat taken by a bot; its results never count."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "BOT"

    def __reduce__(self):
        return (_Bot, ())


BOT = _Bot()


class Standing(NamedTuple):
    player: Player
    points: Fraction
    score: Fraction
    tables: int


class _BudgetExceeded(Exception):
    pass


def table_capacities(players: int) -> list[int]:
    """Human seats per table, best table first; the rest are bot seats."""
    tables = -(-players // TABLE_SIZE)
    capacities = [TABLE_SIZE] * tables
    for i in range(tables * TABLE_SIZE - players):
        capacities[-1 - i % tables] -= 1
    return capacities


def _search(n, capacities, clash):
    """Repeat-free seating of players ``0..n-1`` (rank order) or ``None``."""
    failed: set[frozenset[int]] = set()
    nodes = 0

    def seat(remaining: tuple[int, ...], table: int):
        nonlocal nodes
        if not remaining:
            return []
        key = frozenset(remaining)
        if key in failed:
            return None
        top, rest = remaining[0], remaining[1:]
        for others in combinations(rest, capacities[table] - 1):
            nodes += 1
            if nodes > SEARCH_BUDGET:
                raise _BudgetExceeded
            group = (top, *others)
            if any(clash(a, b) for a, b in combinations(group, 2)):
                continue
            left = tuple(i for i in rest if i not in others)
            found = seat(left, table + 1)
            if found is not None:
                return [group, *found]
        failed.add(key)
        return None

    try:
        return seat(tuple(range(n)), 0)
    except _BudgetExceeded:
        return None


def _improve(n, capacities, clash):
    """Top-down seating improved by swaps: fewer repeats, then less movement."""
    home = []
    for table, capacity in enumerate(capacities):
        home += [table] * capacity
    where = home[:]
    members = [[] for _ in capacities]
    for player, table in enumerate(where):
        members[table].append(player)

    def repeats(player, table, without=None):
        return sum(
            clash(player, other)
            for other in members[table]
            if other != player and other != without
        )

    improved = True
    while improved:
        improved = False
        for a in range(n):
            for b in range(a + 1, n):
                ta, tb = where[a], where[b]
                if ta == tb:
                    continue
                before = repeats(a, ta) + repeats(b, tb)
                after = repeats(a, tb, without=b) + repeats(b, ta, without=a)
                moved_before = abs(ta - home[a]) + abs(tb - home[b])
                moved_after = abs(tb - home[a]) + abs(ta - home[b])
                if (after, moved_after) < (before, moved_before):
                    members[ta].remove(a)
                    members[tb].remove(b)
                    members[ta].append(b)
                    members[tb].append(a)
                    where[a], where[b] = tb, ta
                    improved = True
    return [tuple(sorted(group)) for group in members]


def seat_round(
    standings: Sequence[Player | tuple],
    tablemates_history: Iterable[frozenset] = frozenset(),
    rng: random.Random | None = None,
) -> list[tuple]:
    """Seat the next round; returns tables (tuples of four), best table first.

    ``standings`` lists players best first, either bare or as tuples whose
    first item is the player (e.g. :class:`Standing`). ``tablemates_history``
    holds ``frozenset({a, b})`` for every two players who already shared a
    table. Each table lists its humans in standings order followed by its
    :data:`BOT` seats; if ``rng`` is given the seats of each table are
    shuffled with it instead (for who sits where and deals first).
    """
    players = [p[0] if isinstance(p, tuple) else p for p in standings]
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the standings")
    index = {player: i for i, player in enumerate(players)}
    met = {
        frozenset(index[p] for p in pair)
        for pair in tablemates_history
        if len(pair) == 2 and all(p in index for p in pair)
    }

    def clash(a: int, b: int) -> bool:
        return frozenset((a, b)) in met

    capacities = table_capacities(len(players))
    groups = _search(len(players), capacities, clash)
    if groups is None:
        groups = _improve(len(players), capacities, clash)

    tables = []
    for group in groups:
        seats = [players[i] for i in group] + [BOT] * (TABLE_SIZE - len(group))
        if rng is not None:
            rng.shuffle(seats)
        tables.append(tuple(seats))
    return tables


def points_for_places(places, scheme: Sequence = DEFAULT_SCHEME):
    """Tournament points for finishing places at one table.

    ``places`` is a sequence of places (1 = first) or a mapping from player to
    place; the result has the same shape. Tied players split equally the
    points of the positions they cover: with ``(4, 2, 1, 0)`` two players tied
    for first get ``(4 + 2) / 2 = 3`` each. Positions past the end of
    ``scheme`` are worth nothing. Points are exact fractions.
    """
    keyed = (
        list(places.items()) if isinstance(places, Mapping) else list(enumerate(places))
    )
    values = [Fraction(v) for v in scheme]
    points = {}
    for first, keys in place_groups(keyed):
        covered = values[first : first + len(keys)]
        share = sum(covered, Fraction(0)) / len(keys)
        for key in keys:
            points[key] = share
    if isinstance(places, Mapping):
        return {key: points[key] for key in places}
    return [points[i] for i in range(len(keyed))]


def standings(
    results: Iterable[Iterable[tuple[Player, int, Fraction | int]]],
    scheme: Sequence = DEFAULT_SCHEME,
) -> list[Standing]:
    """Rank players by tournament points, then total game score.

    ``results`` holds one entry per finished table: rows of ``(player, place,
    game_score)``, bot rows included (they occupy their places but are left
    out of the standings). Remaining ties keep the order of first appearance.
    """
    points: dict[Player, Fraction] = {}
    score: dict[Player, Fraction] = {}
    tables: dict[Player, int] = {}
    for table in results:
        rows = list(table)
        awarded = points_for_places([place for _, place, _ in rows], scheme)
        for (player, _, game_score), earned in zip(rows, awarded, strict=True):
            if player is BOT:
                continue
            points[player] = points.get(player, Fraction(0)) + earned
            score[player] = score.get(player, Fraction(0)) + Fraction(game_score)
            tables[player] = tables.get(player, 0) + 1
    ranked = [Standing(p, points[p], score[p], tables[p]) for p in points]
    return sorted(ranked, key=lambda s: (s.points, s.score), reverse=True)
