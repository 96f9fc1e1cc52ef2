"""Swiss system for Japanese Joker (two-player matches).

:func:`pair_round` pairs a round as one maximum-weight matching over every
possible pair (networkx's implementation of Edmonds' blossom algorithm),
with an extra "bye" node when the number of players is odd. Each possible
pair carries penalties, weighed strictly in the order of the FIDE (Dutch)
system's criteria, C.04.3 in the FIDE Handbook (numbering of the 2017
text), so that no amount of a later one outweighs one unit of an earlier
one:

1. a rematch (C1, absolute);
2. a second bye, until everybody has had one (C2, absolute). When the two
   cannot both hold, the rematch is avoided first: the Dutch rules number
   C1 before C2 and leave a round with no legal pairing to the arbiter;
   a game cannot be replayed, while a second bye only repeats a point
   already given once;
3. the bye given above the lowest score group (C4, completion: the bye
   goes to the last bracket; given higher, its player is a downfloater);
4. the sum of the squared score differences of the pairs, the bye counting
   as a pair with a player one point below the lowest score (C6, minimise
   the PSD, with A.8's score difference of the bye). FIDE compares the
   differences sorted, largest first; squares keep that where it matters
   most: one player floating two groups (4) costs more than two players
   floating one (1 + 1);
5. the number of pairs between score groups, that is of downfloaters (C5,
   most pairs inside each bracket). FIDE weighs C5 before C6 bracket by
   bracket, from the top; a round paired at once pairs every player, and
   ranking the differences first keeps one long float from standing in for
   shorter ones, so here the count only breaks ties of tier 4;
6. the bye's rank from the bottom: the lowest-ranked player who may have it
   gets it (Article B's order of candidates leaves the last of the lowest
   bracket unpaired);
7. within a score group, how far the pair is from the fold (1 v 1 + half,
   2 v 2 + half, ...: S1 against S2, then the transpositions of S2 in
   Article B's order); across groups, how far apart the two are in the
   standings (the lowest of a group floats to the highest of the next);
8. a pair from the same half of its score group (when a rematch breaks the
   fold, the top half still meets the bottom half: exchanges between S1
   and S2 come after transpositions).

Colours (C8 to C11) have no tier: a Joker match has no sides, its first
declarer is drawn at random when the table is dealt
(joker.shuffle.draw_first_dealer), so no player can be owed a side.
Repeated floats of earlier rounds (C12 to C19) are not weighed either.

The matching is exact: there is no search budget and no case in which it
settles for less than the best pairing in this order.

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
# A score before the round, whole or in halves.
Score = Fraction | int

BYE_POINTS = Fraction(1)
WIN_POINTS = Fraction(1)
DRAW_POINTS = Fraction(1, 2)

BYE = "bye"  # the extra node of an odd field
UP, DOWN = "up", "down"  # the two floats


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


def _ordered(standings: Sequence[tuple[Player, Score]]) -> list[tuple[Player, Score]]:
    entries = [(entry[0], entry[1]) for entry in standings]
    players = [player for player, _ in entries]
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the standings")
    # Stable: the given order breaks ties between equal scores.
    return sorted(entries, key=lambda entry: entry[1], reverse=True)


class Field:
    """The ranked field of one round (players by rank: 0 is the best) and
    the penalties of its pairs, one per tier of the module's docstring, in
    that order."""

    def __init__(self, scores: list, played: set[frozenset], had_bye: set[int]):
        self.scores = scores
        self.played = played
        self.had_bye = had_bye
        self.everyone_had_a_bye = len(had_bye) == len(scores)
        # Scores as whole numbers of the smallest unit they share (a half
        # point with draws), so that gaps and their squares are integers.
        self.unit = math.lcm(*(Fraction(score).denominator for score in scores))
        self.points = [int(Fraction(score) * self.unit) for score in scores]
        self.lowest = min(self.points)
        self.group_start: dict = {}
        self.group_size: dict = {}
        for rank, score in enumerate(scores):
            self.group_start.setdefault(score, rank)
            self.group_size[score] = self.group_size.get(score, 0) + 1

    def penalties(self) -> dict:
        """Every possible pair of ranks ``(a, b)``, ``a < b``, and every
        possible bye ``(a, BYE)`` in an odd field, with its penalties."""
        count = len(self.scores)
        penalties: dict[tuple[int, int | str], tuple[int, ...]] = {
            (a, b): self.pair_penalties(a, b)
            for a in range(count)
            for b in range(a + 1, count)
        }
        if count % 2:
            penalties.update({(a, BYE): self.bye_penalties(a) for a in range(count)})
        return penalties

    def pair_penalties(self, a: int, b: int) -> tuple[int, ...]:
        """Penalties of pairing the players ranked ``a < b``."""
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
        return (rematch, 0, 0, gap * gap, int(gap != 0), 0, order, same_half)

    def bye_penalties(self, player: int) -> tuple[int, ...]:
        second_bye = int(player in self.had_bye and not self.everyone_had_a_bye)
        above_lowest = self.points[player] - self.lowest
        # A.8: the bye's score difference is taken from one point below the
        # lowest score, so the bye in the lowest group costs one point squared.
        difference = above_lowest + self.unit
        from_bottom = len(self.scores) - 1 - player
        return (
            0,
            second_bye,
            int(above_lowest > 0),
            difference**2,
            0,
            from_bottom,
            0,
            0,
        )


def weights_by_tier(penalties: dict, edges_per_matching: int) -> dict:
    """Edge weights whose maximum-weight perfect matching minimises the
    penalties' totals lexicographically, tier by tier.

    Why no amount of the tiers below can outweigh one unit of a tier: let
    P = ``edges_per_matching`` (every perfect matching has that many edges)
    and M[s] the largest penalty of tier s on any edge, so a matching's
    total T[s] lies in [0, P * M[s]]. The scales are k[last] = 1 and
    k[t] = 1 + sum over the tiers s below t of k[s] * P * M[s]. Take two
    perfect matchings m and m' whose totals agree above tier t, with
    T[t](m') >= T[t](m) + 1. The weighted cost of m' less that of m is at
    least k[t] - sum over s below t of k[s] * (T[s](m) - T[s](m')), and each
    of those differences is at most P * M[s]: so at least k[t] - (k[t] - 1)
    = 1. The weight of an edge is ``top`` less its weighted cost; every
    perfect matching has P edges, so the heaviest perfect matching is the
    cheapest, and the cheapest is the lexicographic minimum. ``top`` exceeds
    any edge's cost, so every weight is positive. The weights are Python
    integers (no rounding at any size), and with integer weights networkx's
    blossom algorithm computes in integers too.
    """
    tiers = len(next(iter(penalties.values())))
    scale = [0] * tiers
    reach = 0  # the most the tiers below can add up to in one matching
    for tier in reversed(range(tiers)):
        scale[tier] = reach + 1
        largest = max(values[tier] for values in penalties.values())
        reach += scale[tier] * largest * edges_per_matching
    top = reach + 1
    return {
        edge: top - sum(v * k for v, k in zip(values, scale, strict=True))
        for edge, values in penalties.items()
    }


def pair_round(
    standings: Sequence[tuple[Player, Score]],
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
    field = Field([score for _, score in entries], played, had_bye)

    graph: nx.Graph[int | str] = nx.Graph()
    edges = (len(players) + 1) // 2
    for (a, b), weight in weights_by_tier(field.penalties(), edges).items():
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


def floats(
    scores: dict[Player, Score], pairs: Iterable[Pair], bye: Player | None
) -> dict[Player, str]:
    """Who floated in a pairing, as arbiters mark it (C.04.3 A.4): of two
    players with different scores, the higher gets a downfloat and the lower
    an upfloat; a bye given above the lowest score is a downfloat too.
    ``scores``: every paired player's score before the round."""
    marks = {}
    for a, b in pairs:
        if scores[a] != scores[b]:
            high, low = (a, b) if scores[a] > scores[b] else (b, a)
            marks[high], marks[low] = DOWN, UP
    if bye is not None and scores[bye] != min(scores.values()):
        marks[bye] = DOWN
    return marks


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
