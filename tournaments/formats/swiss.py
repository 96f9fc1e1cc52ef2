"""Swiss system for Japanese Joker (two-player matches).

Pairing rules of :func:`pair_round`:

* Players are taken in standings order (score descending; the given order
  breaks ties). Within a score group the top half meets the bottom half
  (1 v 3, 2 v 4 in a group of four); the lowest player of an odd group floats
  down to meet the highest-ranked player of the next group.
* Rematches are avoided whenever a rematch-free pairing exists: the search
  backtracks (latest, lowest-ranked choices first) and remembers dead ends, so
  it is exact for the field sizes used here (up to ~64 players). Only if no
  rematch-free pairing exists (or the search budget runs out) are rematches
  allowed, still preferring fresh opponents.
* With an odd number of players one player gets a bye, which scores a win.
  The bye goes to the lowest-ranked player who has not had one; the next
  candidate up is only chosen if the lower one would force a rematch. Once
  everybody has had a bye the rule starts over from the bottom.

:func:`standings` ranks by score, then Buchholz (sum of the opponents'
scores), then Sonneborn-Berger (sum of the scores of beaten opponents plus
half of those of drawn opponents). Scores are exact :class:`fractions.Fraction`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

Player = Hashable
Pair = tuple[Player, Player]

BYE_POINTS = Fraction(1)
WIN_POINTS = Fraction(1)
DRAW_POINTS = Fraction(1, 2)

# Search nodes allowed per attempt before giving up on a rematch-free pairing.
SEARCH_BUDGET = 200_000


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


class _BudgetExceeded(Exception):
    pass


def _ordered(standings: Sequence[tuple[Player, object]]) -> list[tuple[Player, object]]:
    entries = [(entry[0], entry[1]) for entry in standings]
    players = [player for player, _ in entries]
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the standings")
    # Stable: the given order breaks ties between equal scores.
    return sorted(entries, key=lambda entry: entry[1], reverse=True)


def _candidates(order: list[int], scores: list, first: int) -> list[int]:
    """Opponents for ``order[first]`` in preference order (see module doc)."""
    top = order[first]
    rest = order[first + 1 :]
    same = [i for i in rest if scores[i] == scores[top]]
    lower = [i for i in rest if scores[i] != scores[top]]
    group = [top, *same]
    half = len(group) // 2
    # Fold: the top player prefers the head of the bottom half, then further
    # down, then back up through the top half.
    preferred = group[half:] + group[half - 1 : 0 : -1] if half else []
    return preferred + lower


def _pair(
    ranked: list[int],
    scores: list,
    played: set[frozenset[int]],
    allow_rematches: bool,
) -> list[tuple[int, int]] | None:
    """Pair ``ranked`` (indices in rank order); ``None`` if impossible."""
    failed: set[frozenset[int]] = set()
    nodes = 0

    def search(remaining: tuple[int, ...]) -> list[tuple[int, int]] | None:
        nonlocal nodes
        if not remaining:
            return []
        key = frozenset(remaining)
        if key in failed:
            return None
        nodes += 1
        if nodes > SEARCH_BUDGET:
            raise _BudgetExceeded
        options = _candidates(list(remaining), scores, 0)
        if allow_rematches:
            fresh = [o for o in options if frozenset((remaining[0], o)) not in played]
            options = fresh + [o for o in options if o not in fresh]
        else:
            options = [o for o in options if frozenset((remaining[0], o)) not in played]
        for opponent in options:
            rest = tuple(i for i in remaining[1:] if i != opponent)
            found = search(rest)
            if found is not None:
                return [(remaining[0], opponent), *found]
        failed.add(key)
        return None

    return search(tuple(ranked))


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
    scores = [score for _, score in entries]
    index = {player: i for i, player in enumerate(players)}
    played = {
        frozenset(index[p] for p in pair)
        for pair in played_pairs
        if len(pair) == 2 and all(p in index for p in pair)
    }
    had_bye = {index[p] for p in bye_players if p in index}

    everyone = list(range(len(players)))
    if len(players) % 2:
        fresh = [i for i in reversed(everyone) if i not in had_bye]
        bye_order = fresh or list(reversed(everyone))
    else:
        bye_order = [None]

    result = None
    for bye in bye_order:
        ranked = [i for i in everyone if i != bye]
        try:
            pairs = _pair(ranked, scores, played, allow_rematches=False)
        except _BudgetExceeded:
            break
        if pairs is not None:
            result = (pairs, bye)
            break
    if result is None:
        bye = bye_order[0]
        ranked = [i for i in everyone if i != bye]
        result = (_pair(ranked, scores, played, allow_rematches=True), bye)

    pairs, bye = result
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
