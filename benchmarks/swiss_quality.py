"""Quality of the Swiss pairings over simulated tournaments, against the
exact optimum of every round.

    python benchmarks/swiss_quality.py [--tournaments 200] [--seed 1]

Each tournament has 8 to 64 players and 5 to 9 rounds (never more than the
players less one), drawn from a seeded generator; every game has a winner,
chosen at random. Each round is paired by ``tournaments.formats.swiss``
(``pair_round`` on the standings), and the same round is also solved here,
separately, for the optimum: a maximum-weight matching that minimises, in
order, the rematches, the second byes, a bye given above the lowest score
group, and the pairs of players from different score groups (floats). The
optimum's formulation is written out below on its own, with none of the
pairing's order rules, so the two are compared, not copied.

Printed: rematches, second byes and floats over all rounds, ours next to
the optimum's; the rounds where ours has more of any of them (an avoidable
rematch, second bye or float); and the time a pairing takes. Targets: no
avoidable rematch, no second bye, an avoidable float in at most 1% of the
rounds. Exits 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.formats.swiss import History, pair_round, standings  # noqa: E402

BYE = "bye"


def counts(pairs, bye, score, history, lowest) -> tuple[int, int, int, int]:
    """(rematches, second byes, a bye above the lowest group, floats)."""
    rematches = sum(frozenset(pair) in history.played for pair in pairs)
    everyone_had_one = len(history.byes) == len(score)
    second_bye = int(bye is not None and bye in history.byes and not everyone_had_one)
    high_bye = int(bye is not None and score[bye] != lowest)
    floats = sum(score[a] != score[b] for a, b in pairs)
    return rematches, second_bye, high_bye, floats


def optimum(players, score, history) -> tuple[int, int, int, int]:
    """The least rematches, then second byes, then high byes, then floats
    that any pairing of this round can have."""
    lowest = min(score.values())
    everyone_had_one = len(history.byes) == len(players)
    pairs = len(players) // 2 + 1
    # Weights in base (pairs + 1): a tier's total never reaches one unit of
    # the tier above.
    base = pairs + 1

    def cost(rematch, second, high, float_):
        return ((rematch * base + second) * base + high) * base + float_

    top = cost(pairs, pairs, pairs, pairs) + 1
    graph = nx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            rematch = int(frozenset((a, b)) in history.played)
            float_ = int(score[a] != score[b])
            graph.add_edge(a, b, weight=top - cost(rematch, 0, 0, float_))
        if len(players) % 2:
            second = int(a in history.byes and not everyone_had_one)
            high = int(score[a] != lowest)
            graph.add_edge(a, BYE, weight=top - cost(0, second, high, 0))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    chosen, bye = [], None
    for a, b in matching:
        if BYE in (a, b):
            bye = a if b == BYE else b
        else:
            chosen.append((a, b))
    return counts(chosen, bye, score, history, lowest)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    ours_total = [0, 0, 0, 0]
    best_total = [0, 0, 0, 0]
    worse = [0, 0, 0, 0]  # rounds where ours has more, per measure
    rounds = 0
    timings = []
    for _ in range(args.tournaments):
        count = rng.randint(8, 64)
        players = list(range(count))
        results, byes, played = [], [], set()
        for _ in range(min(rng.randint(5, 9), count - 1)):
            table = [(s.player, s.score) for s in standings(results, byes, players)]
            score = dict(table)
            history = History(frozenset(played), frozenset(byes))
            started = time.perf_counter()
            pairs, bye = pair_round(table, history)
            timings.append(time.perf_counter() - started)
            ours = counts(pairs, bye, score, history, min(score.values()))
            best = optimum(players, score, history)
            rounds += 1
            for measure in range(4):
                ours_total[measure] += ours[measure]
                best_total[measure] += best[measure]
                worse[measure] += ours[measure] > best[measure]
            for a, b in pairs:
                played.add(frozenset((a, b)))
                results.append((a, b, rng.choice((a, b))))
            if bye is not None:
                byes.append(bye)

    names = ["rematches", "second byes", "byes above the lowest group", "floats"]
    print(f"{args.tournaments} tournaments, {rounds} rounds (seed {args.seed})")
    print(f"{'':30} {'ours':>8} {'optimum':>8} {'rounds worse':>13}")
    for measure, name in enumerate(names):
        share = 100 * worse[measure] / rounds
        print(
            f"{name:30} {ours_total[measure]:8} {best_total[measure]:8} "
            f"{worse[measure]:6} ({share:.1f}%)"
        )
    timings.sort()
    print(
        f"pairing time: p50 {statistics.median(timings) * 1000:.1f} ms, "
        f"max {timings[-1] * 1000:.1f} ms"
    )
    missed = []
    if worse[0]:
        missed.append("avoidable rematches")
    if ours_total[1] or worse[1]:
        missed.append("second byes")
    if worse[3] > rounds / 100:
        missed.append("avoidable floats in more than 1% of rounds")
    print("targets met" if not missed else f"targets missed: {', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
