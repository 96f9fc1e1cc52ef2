"""Playing strength of the Monte Carlo bot against the autopilot.

Run from the repository root::

    python benchmarks/bot_strength.py [--games N] [--seed S] [--samples K]
                                      [--jobs J]

Whole seeded games, one ``MonteCarloBot`` against autopilots:

* ``georgian-club`` classic (24 deals): the bot in one seat, three
  autopilots in the others; the bot's seat and the first dealer rotate from
  game to game. ``--games`` games (default 120).
* ``georgian-club`` nines (16 nine-card deals): the same, ``--games // 2``
  games.
* ``japanese`` (target 21): the bot against one autopilot, seats and the
  first declarer alternating. ``--games // 2`` games.

For each it prints the bot's mean final total against the autopilots' mean,
and the bot's share of first places (shared first places count) against
what a peer of the autopilots gets: 25% at a 4-player table, 50% in
Japanese Joker, with a 95% margin for the bot's share. The games run in
``--jobs`` processes (default 2). The defaults take about five minutes on
two cores.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import make_rules  # noqa: E402
from games.engine.bots import MonteCarloBot, play_game  # noqa: E402
from games.engine.bots.montecarlo import DEFAULT_SAMPLES  # noqa: E402

# (label, profile, options, share of --games)
TABLES = (
    ("georgian-club classic", "georgian-club", {}, 1.0),
    ("georgian-club nines", "georgian-club", {"schedule": "nines"}, 0.5),
    ("japanese (target 21)", "japanese", {"target": 21}, 0.5),
)


@dataclass
class Tally:
    games: int = 0
    bot_total: float = 0.0
    others_total: float = 0.0
    bot_first: int = 0
    others_first: float = 0.0
    seconds: float = 0.0
    players: int = 4

    def add(self, result: dict) -> None:
        self.games += 1
        self.bot_total += result["bot_total"]
        self.others_total += result["others_total"]
        self.bot_first += result["bot_first"]
        self.others_first += result["others_first"]
        self.seconds += result["seconds"]
        self.players = result["players"]


def play_one(task: tuple) -> dict:
    """One game: the bot's seat and the first dealer come from the index."""
    index, label, profile, options, seed, samples = task
    rules = make_rules(profile, options)
    players = rules.players
    seat = index % players
    first_dealer = (index // players) % players
    bots = [None] * players
    bots[seat] = MonteCarloBot(samples=samples, rng=random.Random(seed * 7919 + index))
    start = time.perf_counter()
    game = play_game(rules, bots, random.Random(seed * 1_000_003 + index), first_dealer)
    seconds = time.perf_counter() - start
    totals, places = game.state.totals, game.state.places
    others = [s for s in range(players) if s != seat]
    return {
        "label": label,
        "players": players,
        "bot_total": totals[seat],
        "others_total": sum(totals[s] for s in others) / len(others),
        "bot_first": places[seat] == 1,
        "others_first": sum(places[s] == 1 for s in others) / len(others),
        "seconds": seconds,
    }


def percent(value: float) -> str:
    return f"{100 * value:5.1f}%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=120, help="classic games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or args.samples < 1:
        parser.error("--games, --jobs and --samples must be at least 1")

    tasks = []
    for label, profile, options, share in TABLES:
        count = max(1, round(args.games * share))
        tasks += [
            (index, label, profile, options, args.seed, args.samples)
            for index in range(count)
        ]
    # The longest games first, so that the processes finish together.
    tasks.sort(key=lambda task: task[1] != "georgian-club nines")
    tallies = {label: Tally() for label, *_ in TABLES}
    start = time.perf_counter()
    with Pool(args.jobs) as pool:
        for result in pool.imap_unordered(play_one, tasks):
            tallies[result["label"]].add(result)
    wall = time.perf_counter() - start

    print(
        f"MonteCarloBot(samples={args.samples}) against the autopilot; "
        f"seed {args.seed}, {len(tasks)} games in {wall:.0f} s "
        f"with {args.jobs} processes"
    )
    header = (
        f"{'game':<22} {'games':>5} {'bot mean':>9} {'autopilot mean':>14} "
        f"{'bot 1st':>7} {'(95% margin)':>12} {'autopilot 1st':>13} "
        f"{'peer':>6} {'s/game':>6}"
    )
    print(header)
    print("-" * len(header))
    for label, *_ in TABLES:
        tally = tallies[label]
        n = tally.games
        share = tally.bot_first / n
        margin = 1.96 * math.sqrt(share * (1 - share) / n)
        peer = 1 / tally.players
        print(
            f"{label:<22} {n:>5} {tally.bot_total / n:>9.1f} "
            f"{tally.others_total / n:>14.1f} {percent(share):>7} "
            f"{'+/-' + percent(margin).strip():>12} "
            f"{percent(tally.others_first / n):>13} {percent(peer):>6} "
            f"{tally.seconds / n:>6.1f}"
        )
    print(
        "bot 1st: the bot's share of first places (shared ones count); "
        "autopilot 1st: the same for an autopilot seat; peer: the share of "
        "an equal player."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
