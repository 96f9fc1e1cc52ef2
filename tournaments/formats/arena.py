"""Arena: a fixed time, and a player is paired again as soon as they are free.

Scoring, game by game in the order a player played them: a win is worth 2
points, a draw 1, a loss 0. Two wins in a row light a streak: from then on
every game counts double (a win 4, a draw 2) until one is not won; that game
still counts double and ends the streak. Ties in points are broken by the
performance rating: the average over a player's games of the opponent's
rating, plus 400 for a win and minus 400 for a loss.

Pairing takes the players who are free now, best standing first, and pairs
them by a maximum matching that keeps partners close in the standings
(``networkx.max_weight_matching``, as the Swiss pairing does). Nobody meets
the opponent of their last game again while another game is still being
played, since that game's players will soon be free too; once nothing else
is being played, a rematch is better than waiting for ever.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx

Player = Hashable

WIN, DRAW, LOSS = "win", "draw", "loss"
BASE_POINTS = {WIN: 2, DRAW: 1, LOSS: 0}
PERFORMANCE_SPREAD = {WIN: 400, DRAW: 0, LOSS: -400}


def doubled(results: Sequence[str], index: int) -> bool:
    """Whether game ``index`` counts double: the two before it were won."""
    return index >= 2 and results[index - 1] == WIN and results[index - 2] == WIN


def game_points(results: Sequence[str]) -> list[int]:
    """The points each game scored, in the order played."""
    return [
        BASE_POINTS[result] * (2 if doubled(results, index) else 1)
        for index, result in enumerate(results)
    ]


def on_streak(results: Sequence[str]) -> bool:
    """Whether the player's next game counts double."""
    return doubled(results, len(results))


@dataclass(frozen=True)
class Game:
    """One finished game of a player: the result and the opponent's rating."""

    result: str
    opponent_rating: int


@dataclass(frozen=True)
class Standing:
    player: Player
    points: int
    performance: Fraction | None
    games: int
    wins: int
    streak: bool


def standing_of(player: Player, games: Sequence[Game]) -> Standing:
    results = [game.result for game in games]
    performance = None
    if games:
        performance = Fraction(
            sum(g.opponent_rating + PERFORMANCE_SPREAD[g.result] for g in games),
            len(games),
        )
    return Standing(
        player=player,
        points=sum(game_points(results)),
        performance=performance,
        games=len(games),
        wins=results.count(WIN),
        streak=on_streak(results),
    )


def standings(games_of: dict[Player, Sequence[Game]]) -> list[Standing]:
    """Best first: points, then performance (a player without a game has
    none and comes after those with one). Equal players keep the order of
    ``games_of``, which is the seeding."""
    table = [standing_of(player, games) for player, games in games_of.items()]
    return sorted(
        table,
        key=lambda s: (
            -s.points,
            s.performance is None,
            -(s.performance or 0),
        ),
    )


def pair_free(
    free: Sequence[Player],
    last_opponent: dict[Player, Player],
    others_playing: bool,
) -> list[tuple[Player, Player]]:
    """Pairs among the ``free`` players (best standing first), each pair
    best first and the pairs in standings order. Someone may be left over:
    an odd player, or one whose only partner would be their last opponent
    while other games go on."""
    size = len(free)
    rank = {player: index for index, player in enumerate(free)}
    graph: nx.Graph[Player] = nx.Graph()
    graph.add_nodes_from(free)
    for i, a in enumerate(free):
        for b in free[i + 1 :]:
            rematch = last_opponent.get(a) == b or last_opponent.get(b) == a
            if rematch and others_playing:
                continue
            # Positive weights, larger for partners closer in the standings;
            # a rematch (allowed only when nothing else is being played)
            # comes last of all.
            weight = 1 if rematch else 1 + size * size - (rank[b] - rank[a]) ** 2
            graph.add_edge(a, b, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = [tuple(sorted(pair, key=rank.__getitem__)) for pair in matching]
    return sorted(pairs, key=lambda pair: rank[pair[0]])
