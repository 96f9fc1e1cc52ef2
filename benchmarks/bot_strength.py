"""Playing strength of the practice bot (``IsmctsBot``), from seeded whole games.

Run from the repository root::

    python benchmarks/bot_strength.py [--games N] [--seed S] [--samples K]
                                      [--jobs J] [--only NAME ...]

Match-ups (``--only`` picks some by name):

* ``classic-vs-mc``: ``georgian-club`` classic (24 deals), the ISMCTS bot in
  one seat against three of today's ``MonteCarloBot`` (``--samples`` deals
  per decision, 12 by default, as the live seats had it); the bot's seat and
  the first dealer rotate. ``--games`` games. Reported: the bot's share of first
  places (fair: 25%) and its mean final total less the others' mean.
* ``japanese-vs-mc``: Japanese Joker (target 21), one match per game, seats
  and the first declarer alternating: the bot's share of matches won (fair:
  50%). ``--games`` games.
* ``classic-vs-openspiel`` and ``japanese-vs-openspiel``: the ISMCTS bot
  against OpenSpiel's own ``ISMCTSBot`` (random rollouts, UCT) playing our
  rules through ``benchmarks/openspiel_joker.py``; at the 4-player table two
  seats each, the bots changing seats from one game to the next (both ways
  round). Reported: the share of games whose winner is ours, and our mean
  total less theirs. ``--games // 2`` games each; needs ``open_spiel``.

Equal thinking time, measured as CPU time of the thinking process (so that
the other engineers' and the run's own processes on a shared machine take
none of it from either side): before the games the script plays one
calibration game of ``MonteCarloBot`` against itself per profile and
measures its mean time per decision that has a choice (``--jobs`` such
games at once); that, plus 1 ms, is the ISMCTS bot's first budget per move
(and OpenSpiel's bot's, in the OpenSpiel match-ups). Against the Monte Carlo
bots the budget then follows the game: before each move it is their mean
time per decision so far plus 1 ms and a quarter of the time the ISMCTS bot
is short of that mean over its moves so far (at most ``MAX_BUDGET`` times
their mean), so that both sides' mean thinking time per decision comes out
about the same. The measured mean
thinking times of both sides are printed with the results, and, in the
4-player game, the share of bids each side made exactly.

Shares come with a 95% Wilson interval, score differences with a 95% normal
margin (1.96 standard errors).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import legal_actions, make_rules  # noqa: E402
from games.engine.bots import IsmctsBot, MonteCarloBot, play_game  # noqa: E402

LIVE_SAMPLES = 12  # the Monte Carlo bot the live tables used before IsmctsBot
KEPT_BACK = 0.001  # seconds of its budget a bot leaves unused, about
# The most a budget may grow above the Monte Carlo bots' mean time per
# decision, where the bot leaves time unused on easy moves.
MAX_BUDGET = 4
# Moves over which the bot makes up the time it is short of their mean.
CATCH_UP_MOVES = 4
# Thinking time is the CPU time of the thinking process, so that other work
# on a shared machine (and the other games of the run) takes none of it.
CLOCK = time.thread_time
CLASSIC = ("georgian-club", {})
JAPANESE = ("japanese", {"target": 21})

# name: (rules, opponent, share of --games)
MATCHUPS = {
    "classic-vs-mc": (CLASSIC, "mc", 1.0),
    "japanese-vs-mc": (JAPANESE, "mc", 1.0),
    "classic-vs-openspiel": (CLASSIC, "openspiel", 0.5),
    "japanese-vs-openspiel": (JAPANESE, "openspiel", 0.5),
}


class Timed:
    """Wraps a bot and measures its time on moves that have a choice."""

    def __init__(self, bot):
        self.bot = bot
        self.seconds = 0.0
        self.moves = 0

    def choose(self, state, deal_actions):
        if len(legal_actions(state)) < 2:
            return legal_actions(state)[0]
        start = CLOCK()
        action = self.bot.choose(state, deal_actions)
        self.seconds += CLOCK() - start
        self.moves += 1
        return action


def calibration_game(task: tuple) -> tuple[float, int]:
    """One game of ``MonteCarloBot`` against itself: (seconds, decisions with
    a choice)."""
    profile, options, samples, seed = task
    rules = make_rules(profile, options)
    bots = [
        Timed(MonteCarloBot(samples=samples, rng=random.Random(seed + s)))
        for s in range(rules.players)
    ]
    play_game(rules, bots, random.Random(seed))
    return sum(b.seconds for b in bots), sum(b.moves for b in bots)


def calibrate(pool, profile, options, samples: int, seed: int, jobs: int) -> float:
    """``MonteCarloBot``'s mean seconds per decision with a choice, measured
    in ``jobs`` games at once (the load of the match-ups themselves)."""
    tasks = [(profile, options, samples, seed + 100 * j) for j in range(jobs)]
    games = pool.map(calibration_game, tasks)
    return sum(s for s, _ in games) / sum(m for _, m in games)


def play_one(task: tuple) -> dict:
    name, index, seed, samples, budget = task
    (profile, options), opponent, _ = MATCHUPS[name]
    rules = make_rules(profile, options)
    players = rules.players
    first_dealer = (index // players) % players
    if opponent == "mc":
        ours = [index % players]
    elif players == 2:
        ours = [index % 2]
    else:
        ours = [0, 2] if index % 2 == 0 else [1, 3]
    bots = []
    for seat in range(players):
        bot_seed = seed * 7919 + index * 8 + seat
        if seat in ours:
            bot = IsmctsBot(budget=budget, rng=random.Random(bot_seed), timer=CLOCK)
        elif opponent == "mc":
            bot = MonteCarloBot(samples=samples, rng=random.Random(bot_seed))
        else:
            from benchmarks.openspiel_joker import TimedISMCTSBot, joker_game

            game = joker_game(rules, "deal")
            bot = TimedISMCTSBot(game, budget, bot_seed, timer=CLOCK)
        bots.append(Timed(bot))
    if opponent == "mc":
        # Equal thinking time as the game goes: before each move the ISMCTS
        # bot's budget is the Monte Carlo bots' mean time per decision so
        # far in this game (the calibrated one until they have thought),
        # plus a share of what it is short of that mean so far.
        ours_bot = bots[ours[0]]
        others = [bots[s] for s in range(players) if s not in ours]
        choose = ours_bot.choose

        def keep_level(state, deal_actions):
            moves = sum(b.moves for b in others)
            mean = budget - KEPT_BACK
            if moves:
                mean = sum(b.seconds for b in others) / moves
            # The time the bot is short of their mean so far, made up over
            # the next few moves.
            owed = mean * ours_bot.moves - ours_bot.seconds
            extra = KEPT_BACK + max(0.0, owed) / CATCH_UP_MOVES
            ours_bot.bot.budget = min(MAX_BUDGET * mean, mean + extra)
            return choose(state, deal_actions)

        ours_bot.choose = keep_level
    game = play_game(rules, bots, random.Random(seed * 1_000_003 + index), first_dealer)
    totals, places = game.state.totals, game.state.places
    theirs = [s for s in range(players) if s not in ours]
    deals = game.state.deals if not rules.is_japanese else ()
    return {
        "our_exact": sum(d.bids[s] == d.tricks[s] for d in deals for s in ours),
        "their_exact": sum(d.bids[s] == d.tricks[s] for d in deals for s in theirs),
        "our_bids": len(deals) * len(ours),
        "their_bids": len(deals) * len(theirs),
        "name": name,
        "won": any(places[s] == 1 for s in ours)
        and (opponent == "mc" or all(places[s] > 1 for s in theirs)),
        "diff": sum(totals[s] for s in ours) / len(ours)
        - sum(totals[s] for s in theirs) / len(theirs),
        "our_time": sum(bots[s].seconds for s in ours),
        "our_moves": sum(bots[s].moves for s in ours),
        "their_time": sum(bots[s].seconds for s in theirs),
        "their_moves": sum(bots[s].moves for s in theirs),
    }


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def report(name: str, results: list[dict], budget: float) -> None:
    (profile, _), opponent, _ = MATCHUPS[name]
    n = len(results)
    wins = sum(r["won"] for r in results)
    low, high = wilson(wins, n)
    diffs = [r["diff"] for r in results]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    margin = 1.96 * sd / math.sqrt(n)
    ours = sum(r["our_time"] for r in results) / max(
        1, sum(r["our_moves"] for r in results)
    )
    theirs = sum(r["their_time"] for r in results) / max(
        1, sum(r["their_moves"] for r in results)
    )
    if opponent == "mc":
        what = "1st places" if profile != "japanese" else "matches won"
        fair = "25%" if profile != "japanese" else "50%"
    else:
        what = "games won by ours"
        fair = "50%"
    exact = ""
    if profile != "japanese":
        ours_exact = sum(r["our_exact"] for r in results) / max(
            1, sum(r["our_bids"] for r in results)
        )
        theirs_exact = sum(r["their_exact"] for r in results) / max(
            1, sum(r["their_bids"] for r in results)
        )
        exact = (
            f"  bids made ours {100 * ours_exact:.1f}%, "
            f"theirs {100 * theirs_exact:.1f}%"
        )
    print(
        f"{name:<22} {n:>4} games  {what}: {100 * wins / n:5.1f}% "
        f"(95% {100 * low:.1f}-{100 * high:.1f}%, fair {fair})  "
        f"score diff {mean:+7.1f} +/- {margin:.1f}  "
        f"thinking/move ours {1000 * ours:.1f} ms, theirs {1000 * theirs:.1f} ms "
        f"(budget {1000 * budget:.1f} ms){exact}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=LIVE_SAMPLES)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", choices=list(MATCHUPS))
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or args.samples < 1:
        parser.error("--games, --jobs and --samples must be at least 1")
    names = args.only or list(MATCHUPS)
    if any(MATCHUPS[name][1] == "openspiel" for name in names):
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print(
                "open_spiel is NOT installed: the OpenSpiel match-ups cannot run; "
                "install the optional group: pip install -e '.[bench]'",
                file=sys.stderr,
            )
            return 2

    pool = Pool(args.jobs)
    budgets = {}
    for profile, options in (CLASSIC, JAPANESE):
        mean = calibrate(pool, profile, options, args.samples, args.seed, args.jobs)
        # The bots keep back a little over 2 ms of their budget (see
        # ``IsmctsBot``): a budget that much above the Monte Carlo bot's mean
        # gives about the same mean thinking time.
        budgets[profile] = mean + KEPT_BACK
        print(
            f"MonteCarloBot(samples={args.samples}) thinks {1000 * mean:.1f} ms "
            f"per decision in {profile}: budget per move "
            f"{1000 * budgets[profile]:.1f} ms"
        )
    tasks = []
    for name in names:
        (profile, _), _, share = MATCHUPS[name]
        count = max(1, round(args.games * share))
        tasks += [
            (name, index, args.seed, args.samples, budgets[profile])
            for index in range(count)
        ]
    results: dict[str, list] = {name: [] for name in names}
    start = time.perf_counter()
    with pool:
        for result in pool.imap_unordered(play_one, tasks):
            results[result["name"]].append(result)
    print(
        f"seed {args.seed}, {len(tasks)} games in {time.perf_counter() - start:.0f} s "
        f"with {args.jobs} processes"
    )
    for name in names:
        report(name, results[name], budgets[MATCHUPS[name][0][0]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
