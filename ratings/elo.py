"""Elo rating changes, as pure functions (no Django).

The rules, also described in the README ("Ratings"):

- Expected score of A against B: ``1 / (1 + 10 ** ((B - A) / 400))``.
- K-factor, from the player's rating and rated games *before* this one:
  40 for the first 20 rated games (provisional), then 20, and 10 once the
  rating is 2400 or more.
- Two players: ``K * (S - E)``, S = 1 for the better place, 0.5 for a shared
  place, 0 for the worse one.
- More players: every pair of players is a two-player game decided by their
  final places (a shared place is a draw); a player's change is the sum over
  the opponents of ``K * (S - E)``, divided by ``N - 1``. A leaver is already
  placed last in the places given.
- Sides (pairs): each side plays as one player whose rating is the mean of
  its members'; every member gets the side's ``S - E``, scaled by the
  member's own K (a provisional partner moves faster, as in singles).
- Each player's change is rounded once, at the end, to a whole number, half
  away from zero (after rounding the exact value to 9 decimals, so that
  binary floating point cannot turn 2.5 into 2).

With equal K the exact changes of a game sum to zero. Two players and two
sides then also get exactly opposite whole changes, since rounding half away
from zero is symmetric. With three or more players each change is rounded on
its own, so the whole changes of a table can miss zero by up to ``N / 2``
points; the error has no direction, so it does not drift the rating pool.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

START = 1500
# A practice bot's rating at each level, fixed: at a table rated with bots
# (quick play's ranked option) each bot is an opponent of this rating whose
# own rating never moves (docs/ratings.md, "Bot seats"). Estimates of the
# levels' strength, kept here only.
BOT_RATINGS = {"easy": 1200, "practice": 1500, "strong": 1800}
PROVISIONAL_GAMES = 20
K_PROVISIONAL = 40
K_STANDARD = 20
K_MASTER = 10
MASTER_RATING = 2400


def expected(rating: float, opponent: float) -> float:
    """The expected score (0..1) of a player rated ``rating`` against one
    rated ``opponent``."""
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def k_factor(rating: int, games: int) -> int:
    """K for a player with ``games`` rated games so far, rated ``rating``."""
    if games < PROVISIONAL_GAMES:
        return K_PROVISIONAL
    if rating >= MASTER_RATING:
        return K_MASTER
    return K_STANDARD


def round_half_away(value: float) -> int:
    """The nearest whole number, halves away from zero: 2.5 -> 3, -2.5 -> -3."""
    value = round(value, 9)
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def score(place: int, other: int) -> float:
    """The score of finishing ``place`` against a player who finished
    ``other`` (1 = first): 1 better, 0.5 shared, 0 worse."""
    if place < other:
        return 1.0
    if place == other:
        return 0.5
    return 0.0


def _check(ratings: Sequence, places: Sequence, ks: Sequence) -> None:
    if not len(ratings) == len(places) == len(ks):
        raise ValueError("ratings, places and K-factors differ in length")
    if len(ratings) < 2:
        raise ValueError("a rated game needs at least two players")


def free_for_all_exact(
    ratings: Sequence[float], places: Sequence[int], ks: Sequence[float]
) -> list[float]:
    """Each player's unrounded change: pairwise Elo by places, over N - 1."""
    _check(ratings, places, ks)
    n = len(ratings)
    out = []
    for i in range(n):
        total = sum(
            score(places[i], places[j]) - expected(ratings[i], ratings[j])
            for j in range(n)
            if j != i
        )
        out.append(ks[i] * total / (n - 1))
    return out


def free_for_all(
    ratings: Sequence[int], places: Sequence[int], ks: Sequence[int]
) -> list[int]:
    """Each player's whole change in a game where everyone plays for
    themselves (two players: plain Elo)."""
    return [round_half_away(d) for d in free_for_all_exact(ratings, places, ks)]


def two_player(
    rating_a: int, rating_b: int, score_a: float, *, k_a: int, k_b: int
) -> tuple[int, int]:
    """The whole changes of A and B when A scores ``score_a`` (1, 0.5, 0)."""
    if score_a not in (0, 0.5, 1):
        raise ValueError(f"a score is 0, 0.5 or 1, not {score_a!r}")
    places = {1: (1, 2), 0.5: (1, 1), 0: (2, 1)}[score_a]
    a, b = free_for_all((rating_a, rating_b), places, (k_a, k_b))
    return a, b


def sides_exact(
    ratings: Sequence[float],
    places: Sequence[int],
    ks: Sequence[float],
    sides: Sequence[int],
) -> list[float]:
    """Each player's unrounded change when ``sides[i]`` names player i's side:
    sides play pairwise Elo as players rated the mean of their members."""
    _check(ratings, places, ks)
    if len(sides) != len(ratings):
        raise ValueError("ratings and sides differ in length")
    members: dict[int, list[int]] = {}
    for player, side in enumerate(sides):
        members.setdefault(side, []).append(player)
    if len(members) < 2:
        raise ValueError("a game of sides needs at least two sides")
    side_rating = {}
    side_place = {}
    for side, players in members.items():
        if len({places[p] for p in players}) != 1:
            raise ValueError(f"the members of side {side} have different places")
        side_rating[side] = sum(ratings[p] for p in players) / len(players)
        side_place[side] = places[players[0]]
    side_change = {}
    for side in members:
        total = sum(
            score(side_place[side], side_place[other])
            - expected(side_rating[side], side_rating[other])
            for other in members
            if other != side
        )
        side_change[side] = total / (len(members) - 1)
    return [ks[p] * side_change[sides[p]] for p in range(len(ratings))]


def sides_game(
    ratings: Sequence[int],
    places: Sequence[int],
    ks: Sequence[int],
    sides: Sequence[int],
) -> list[int]:
    """Each player's whole change in a game of sides (pairs)."""
    return [round_half_away(d) for d in sides_exact(ratings, places, ks, sides)]


def game_changes(
    ratings: Sequence[int],
    games: Sequence[int],
    places: Sequence[int],
    sides: Sequence[int] | None = None,
) -> list[int]:
    """The whole rating changes of a finished game, by seat: ``ratings`` and
    ``games`` (rated games so far) before it, the final ``places`` (leavers
    last), and the seats' ``sides`` in a game of pairs (None otherwise)."""
    ks = [k_factor(r, g) for r, g in zip(ratings, games, strict=True)]
    if sides is None:
        return free_for_all(ratings, places, ks)
    return sides_game(ratings, places, ks, sides)
