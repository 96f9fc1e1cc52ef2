"""Swiss system for Japanese Joker (two-player matches).

:func:`pair_round` pairs a round as one maximum-weight matching over every
possible pair (networkx's implementation of Edmonds' blossom algorithm),
with an extra "bye" node when the number of players is odd. Each possible
pair carries penalties, weighed strictly in this order, so that no amount
of a later one can outweigh one unit of an earlier one:

1. a rematch;
2. a second bye (until everybody has had one);
3. the bye given above the lowest score group;
4. a pair of players from different score groups (a float);
5. the square of the score gap of a pair (for the bye, of its player's
   score above the lowest), so that floats are as short as they can be and
   the bye goes as low as it can;
6. the bye's rank from the bottom: the lowest-ranked player without a bye
   gets it;
7. within a score group, how far the pair is from the fold (1 v 1 + half,
   2 v 2 + half, ...); across groups, how far apart the two are in the
   standings (the lowest of a group floats to the highest of the next);
8. a pair from the same half of its score group (when a rematch breaks the
   fold, the top half still meets the bottom half).

So the pairing has the fewest rematches there can be, never a second bye
that can be avoided, the fewest floats that rematches allow, and among
those the usual Dutch order. The matching is exact: there is no search
budget and no case in which it settles for less.

:func:`standings` ranks by score, then Buchholz (sum of the opponents'
scores), then Sonneborn-Berger (sum of the scores of beaten opponents plus
half of those of drawn opponents). Scores are exact :class:`fractions.Fraction`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

import networkx as nx

Player = Hashable
Pair = tuple[Player, Player]

BYE_POINTS = Fraction(1)
WIN_POINTS = Fraction(1)
DRAW_POINTS = Fraction(1, 2)

BYE = "bye"  # the extra node of an odd field


class History(NamedTuple):
    """What earlier rounds fixed: pairs already played and players given a bye."""

    played: frozenset[frozenset] = frozenset()
    byes: frozenset = frozenset()


NO_HISTORY = History()


class Standing(NamedTuple):
    player: Player
    score: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction


def _ordered(standings: Sequence[tuple[Player, object]]) -> list[tuple[Player, object]]:
    entries = [(entry[0], entry[1]) for entry in standings]
    players = [player for player, _ in entries]
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the standings")
    # Stable: the given order breaks ties between equal scores.
    return sorted(entries, key=lambda entry: entry[1], reverse=True)


class _Field:
    """The ranked field of one round and the penalties of its pairs."""

    def __init__(self, scores: list, played: set[frozenset], had_bye: set[int]):
        self.scores = scores
        self.played = played
        self.had_bye = had_bye
        self.everyone_had_a_bye = len(had_bye) == len(scores)
        # Scores as whole numbers of the smallest unit they share (a half
        # point with draws), so that gaps and their squares are integers.
        unit = math.lcm(*(Fraction(score).denominator for score in scores))
        self.points = [int(Fraction(score) * unit) for score in scores]
        self.group_start: dict = {}
        self.group_size: dict = {}
        for rank, score in enumerate(scores):
            self.group_start.setdefault(score, rank)
            self.group_size[score] = self.group_size.get(score, 0) + 1

    def pair_penalties(self, a: int, b: int) -> tuple[int, ...]:
        """Penalties of pairing the players ranked ``a < b``, by order."""
        rematch = int(frozenset((a, b)) in self.played)
        gap = self.points[a] - self.points[b]
        if gap == 0:
            score = self.scores[a]
            half = self.group_size[score] // 2
            first, second = (r - self.group_start[score] for r in (a, b))
            same_half = int(not first < half <= second)
            order = abs(second - first - half)
        else:
            same_half, order = 0, b - a
        return (rematch, 0, 0, int(gap != 0), gap * gap, 0, order, same_half)

    def bye_penalties(self, player: int) -> tuple[int, ...]:
        second_bye = int(player in self.had_bye and not self.everyone_had_a_bye)
        above_lowest = self.points[player] - min(self.points)
        from_bottom = len(self.scores) - 1 - player
        return (
            0,
            second_bye,
            int(above_lowest > 0),
            0,
            above_lowest**2,
            from_bottom,
            0,
            0,
        )


def _weights(penalties: dict, pairs_per_round: int) -> dict:
    """Edge weights for a maximum-weight matching that minimises the
    penalties lexicographically: each tier is scaled past the largest total
    the tiers below it can reach in one round."""
    tiers = len(next(iter(penalties.values())))
    scale = [0] * tiers
    reach = 0  # the most the tiers below can add up to
    for tier in reversed(range(tiers)):
        scale[tier] = reach + 1
        largest = max(values[tier] for values in penalties.values())
        reach += scale[tier] * largest * pairs_per_round
    top = reach + 1
    return {
        edge: top - sum(v * k for v, k in zip(values, scale, strict=True))
        for edge, values in penalties.items()
    }


def pair_round(
    standings: Sequence[tuple[Player, object]],
    history: History | tuple[Iterable[frozenset], Iterable[Player]] = NO_HISTORY,
    rng: random.Random | None = None,
) -> tuple[list[Pair], Player | None]:
    """Pair the next round.

    ``standings`` lists ``(player, score)`` best first (extra fields, as in
    :class:`Standing`, are ignored). ``history`` is ``(played, byes)``: the set
    of ``frozenset({a, b})`` pairs already played and the players who already
    had a bye. If ``rng`` is given, players with equal scores are shuffled
    before pairing (for unseeded fields); otherwise the given order is kept.

    Returns ``(pairs, bye)``: pairs list the higher-ranked player first, best
    boards first; ``bye`` is ``None`` when the number of players is even.
    """
    played_pairs, bye_players = history
    entries = _ordered(standings)
    if rng is not None:
        shuffled = entries[:]
        rng.shuffle(shuffled)
        entries = sorted(shuffled, key=lambda entry: entry[1], reverse=True)
    players = [player for player, _ in entries]
    if len(players) < 2:
        return [], players[0] if players else None
    index = {player: i for i, player in enumerate(players)}
    played = {
        frozenset(index[p] for p in pair)
        for pair in played_pairs
        if len(pair) == 2 and all(p in index for p in pair)
    }
    had_bye = {index[p] for p in bye_players if p in index}
    field = _Field([score for _, score in entries], played, had_bye)

    count = len(players)
    penalties = {
        (a, b): field.pair_penalties(a, b)
        for a in range(count)
        for b in range(a + 1, count)
    }
    if count % 2:
        penalties.update({(a, BYE): field.bye_penalties(a) for a in range(count)})
    graph = nx.Graph()
    for (a, b), weight in _weights(penalties, count // 2 + 1).items():
        graph.add_edge(a, b, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)

    pairs, bye = [], None
    for a, b in matching:
        if BYE in (a, b):
            bye = a if b == BYE else b
        else:
            pairs.append((min(a, b), max(a, b)))
    pairs.sort()
    return (
        [(players[a], players[b]) for a, b in pairs],
        None if bye is None else players[bye],
    )


def standings(
    results: Iterable[tuple[Player, Player, Player | None]],
    byes: Iterable[Player] = (),
    players: Iterable[Player] = (),
) -> list[Standing]:
    """Rank players from match results.

    ``results`` holds ``(a, b, winner)`` with ``winner`` one of ``a``, ``b`` or
    ``None`` for a draw. Each entry of ``byes`` is worth :data:`BYE_POINTS`
    and adds nothing to the tie-breaks (a bye has no opponent). ``players``
    may list players without games yet. Ties on all criteria keep the order
    of first appearance (``players`` first, then results, then byes).
    """
    results = list(results)
    byes = list(byes)
    order: dict[Player, None] = dict.fromkeys(players)
    for a, b, winner in results:
        if winner is not None and winner not in (a, b):
            raise ValueError(f"winner {winner!r} did not play in {a!r} v {b!r}")
        order.setdefault(a)
        order.setdefault(b)
    for player in byes:
        order.setdefault(player)

    score = dict.fromkeys(order, Fraction(0))
    for a, b, winner in results:
        if winner is None:
            score[a] += DRAW_POINTS
            score[b] += DRAW_POINTS
        else:
            score[winner] += WIN_POINTS
    for player in byes:
        score[player] += BYE_POINTS

    buchholz = dict.fromkeys(order, Fraction(0))
    berger = dict.fromkeys(order, Fraction(0))
    for a, b, winner in results:
        buchholz[a] += score[b]
        buchholz[b] += score[a]
        if winner is None:
            berger[a] += score[b] / 2
            berger[b] += score[a] / 2
        else:
            loser = b if winner == a else a
            berger[winner] += score[loser]

    table = [Standing(p, score[p], buchholz[p], berger[p]) for p in order]
    return sorted(table, key=lambda s: s[1:], reverse=True)
