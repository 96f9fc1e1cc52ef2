"""Playing strength of the practice bot (``IsmctsBot``), from seeded whole games.

Run from the repository root::

    python benchmarks/bot_strength.py [--games N] [--seed S] [--jobs J]
                                      [--budgets B1 B2 ...] [--positions P]
                                      [--their-playouts random|autopilot]
                                      [--fixed] [--samples K] [--max-deals D]
                                      [--only NAME ...] [--json FILE]

Match-ups (``--only`` picks some by name):

* ``classic-vs-openspiel``: ``georgian-club`` classic (24 deals), our bot in
  one seat against three of OpenSpiel's ``ISMCTSBot`` playing our rules
  through ``benchmarks/openspiel_joker.py``; our seat and the first dealer
  rotate. Reported: our share of first places (fair: 25%). Target: 30%.
* ``japanese-vs-openspiel``: Japanese Joker (target 21), one match per game,
  seats and the first declarer alternating. Reported: our share of matches
  won (fair: 50%). Target: 60%.
* ``classic-vs-mc`` and ``japanese-vs-mc``: the same against today's
  ``MonteCarloBot`` (``--samples`` deals per decision), the ISMCTS bot's
  budget following their measured thinking time as the game goes.

Against OpenSpiel, equal CPU time per move. Thinking time is the CPU time
of the thinking thread (``time.thread_time``), so that other work on a
shared machine takes none of it. Our bot thinks within a budget per move;
each budget of ``--budgets`` (two by default) is a match-up of its own.
OpenSpiel's bot is given a number of simulations a move that costs the
same CPU time: before the games, both bots choose moves at the same
``--positions`` positions (decisions with a choice, from seeded games the
autopilot plays), ours at the budget and OpenSpiel's at two counts of
simulations, and the count whose fitted cost (a fixed part plus a part per
simulation) equals our mean is its starting count. A move's cost varies so
much with the position that a count fixed for the whole game misses the
games' mean by up to a fifth, so in each game the count is set again before
each of its moves (and fixed for that move) from its CPU time per
simulation so far and our mean time per move so far; ``--fixed`` keeps the
calibrated count instead. Its playouts run on the same bit masks as ours
(``BitmaskRollout``: random legal moves by default, as its own rollout
evaluator plays; ``--their-playouts autopilot`` gives it our playout policy
as well), so the two differ in the search, not in playout speed. Both
sides' measured CPU time per move in the games is printed, the calibrated
and the mean count of simulations, and whether the times are within 10%.

Shares come with a 95% Wilson interval, score differences with a 95% normal
margin (1.96 standard errors). ``--max-deals`` cuts every game short (for a
smoke run: places are then by the totals so far).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from functools import partial
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from joker import legal_actions, make_rules  # noqa: E402
from joker.bots import (  # noqa: E402
    IsmctsBot,
    MonteCarloBot,
    autopilot_action,
    play_game,
)
from joker.scoring import places  # noqa: E402

LIVE_SAMPLES = 12  # the Monte Carlo bot the live tables used before IsmctsBot
KEPT_BACK = 0.001  # seconds of its budget a bot leaves unused, about
# The most a budget may grow above the Monte Carlo bots' mean time per
# decision, where the bot leaves time unused on easy moves.
MAX_BUDGET = 4
# Moves over which the bot makes up the time it is short of their mean.
CATCH_UP_MOVES = 4
CLOCK = time.thread_time
CLASSIC = ("georgian-club", {})
JAPANESE = ("japanese", {"target": 21})
BUDGETS = (0.025, 0.1)  # seconds of CPU a move
# OpenSpiel's simulation counts tried at the calibration positions.
TRIAL_SIMULATIONS = (10, 40)
EQUAL_WITHIN = 0.10
TARGETS = {"classic-vs-openspiel": 0.30, "japanese-vs-openspiel": 0.60}

# name: (rules, opponent)
MATCHUPS = {
    "classic-vs-openspiel": (CLASSIC, "openspiel"),
    "japanese-vs-openspiel": (JAPANESE, "openspiel"),
    "classic-vs-mc": (CLASSIC, "mc"),
    "japanese-vs-mc": (JAPANESE, "mc"),
}


class Timed:
    """Wraps a bot and measures its CPU time on moves that have a choice."""

    def __init__(self, bot):
        self.bot = bot
        self.seconds = 0.0
        self.moves = 0
        self.simulations_done = 0  # OpenSpiel's bot, levelled: its searches

    def choose(self, state, deal_actions):
        if len(legal_actions(state)) < 2:
            return legal_actions(state)[0]
        start = CLOCK()
        action = self.bot.choose(state, deal_actions)
        self.seconds += CLOCK() - start
        self.moves += 1
        return action


# Calibration: OpenSpiel's simulations a move that cost our budget.


class Recorder:
    """The autopilot, keeping every position with a choice it plays."""

    def __init__(self, positions: list):
        self.positions = positions

    def choose(self, state, deal_actions):
        if len(legal_actions(state)) > 1:
            self.positions.append((state, list(deal_actions)))
        return autopilot_action(state)


def positions_of(rules, seed: int, count: int, max_deals: int | None) -> list:
    """``count`` positions spread evenly over seeded autopilot games."""
    found: list = []
    game = 0
    while len(found) < count:
        recorder = Recorder(found)
        bots = [recorder] * rules.players
        play_game(rules, bots, random.Random(seed + game), max_deals=max_deals)
        game += 1
    step = len(found) / count
    return [found[int(n * step)] for n in range(count)]


def mean_cpu(bot, positions: list) -> float:
    """``bot``'s mean CPU seconds a move over ``positions``."""
    timed = Timed(bot)
    for state, deal_actions in positions:
        timed.choose(state, deal_actions)
    return timed.seconds / max(1, timed.moves)


def calibrate_openspiel(task: tuple) -> dict:
    """Our bot's mean CPU time a move at ``budget``, and the simulations a
    move at which OpenSpiel's bot costs the same (a linear fit of its cost
    at two counts, on the same positions)."""
    profile, options, budget, seed, count, policy, max_deals = task
    from benchmarks.openspiel_joker import MIN_SIMULATIONS, CountedISMCTSBot

    rules = make_rules(profile, options)
    positions = positions_of(rules, seed, count, max_deals)
    ours = mean_cpu(
        IsmctsBot(budget=budget, rng=random.Random(seed), timer=CLOCK), positions
    )
    low, high = TRIAL_SIMULATIONS
    t_low, t_high = (
        mean_cpu(CountedISMCTSBot(n, seed, policy), positions) for n in (low, high)
    )
    per_simulation = (t_high - t_low) / (high - low)
    fixed = t_low - per_simulation * low
    if per_simulation > 0:
        simulations = round((ours - fixed) / per_simulation)
    else:  # timing noise: proportional to the lower count
        simulations = round(low * ours / t_low)
    return {
        "profile": profile,
        "budget": budget,
        "ours_ms": 1000 * ours,
        "simulations": max(MIN_SIMULATIONS, simulations),
        "trial_ms": {low: 1000 * t_low, high: 1000 * t_high},
    }


def calibrate_mc(task: tuple) -> tuple[float, int]:
    """One game of ``MonteCarloBot`` against itself: (seconds, decisions with
    a choice)."""
    profile, options, samples, seed, max_deals = task
    rules = make_rules(profile, options)
    bots = [
        Timed(MonteCarloBot(samples=samples, rng=random.Random(seed + s)))
        for s in range(rules.players)
    ]
    play_game(rules, bots, random.Random(seed), max_deals=max_deals)
    return sum(b.seconds for b in bots), sum(b.moves for b in bots)


# The games.


def our_seats(rules, index: int) -> list[int]:
    """Our bot's seat in game ``index``: rotating."""
    return [index % rules.players]


def play_one(task: dict) -> dict:
    (profile, options), opponent = MATCHUPS[task["name"]]
    rules = make_rules(profile, options)
    index, seed, budget = task["index"], task["seed"], task["budget"]
    players = rules.players
    first_dealer = (index // players) % players
    ours = our_seats(rules, index)
    bots = []
    for seat in range(players):
        bot_seed = seed * 7919 + index * 8 + seat
        if seat in ours:
            bot = IsmctsBot(budget=budget, rng=random.Random(bot_seed), timer=CLOCK)
        elif opponent == "mc":
            bot = MonteCarloBot(samples=task["samples"], rng=random.Random(bot_seed))
        else:
            from benchmarks.openspiel_joker import CountedISMCTSBot

            bot = CountedISMCTSBot(task["simulations"], bot_seed, task["policy"])
        bots.append(Timed(bot))
    if opponent == "mc":
        keep_level(bots, ours, budget)
    elif not task["fixed"]:
        level_simulations(bots, ours, task["simulations"])
    game = play_game(
        rules,
        bots,
        random.Random(seed * 1_000_003 + index),
        first_dealer,
        max_deals=task["max_deals"],
    )
    return outcome(task, game.state, bots, ours)


def keep_level(bots: list, ours: list[int], budget: float) -> None:
    """Equal thinking time against the Monte Carlo bots as the game goes:
    before each move the ISMCTS bot's budget is their mean time per decision
    so far in this game (the calibrated one until they have thought), plus
    a share of what it is short of that mean so far."""
    ours_bot = bots[ours[0]]
    others = [bot for seat, bot in enumerate(bots) if seat not in ours]
    choose = ours_bot.choose

    def levelled(state, deal_actions):
        moves = sum(b.moves for b in others)
        mean = budget - KEPT_BACK
        if moves:
            mean = sum(b.seconds for b in others) / moves
        owed = mean * ours_bot.moves - ours_bot.seconds
        extra = KEPT_BACK + max(0.0, owed) / CATCH_UP_MOVES
        ours_bot.bot.budget = min(MAX_BUDGET * mean, mean + extra)
        return choose(state, deal_actions)

    ours_bot.choose = levelled


def level_simulations(bots: list, ours: list[int], calibrated: int) -> None:
    """Equal CPU time against OpenSpiel's bots as the game goes. The count
    calibrated on a few dozen positions misses the games' mean by up to a
    fifth (a move's cost varies a lot with the position), so before each of
    their moves the count is set again, fixed for that move: their CPU time
    per simulation so far into our mean time per move so far, plus a share
    of what they are short of or over it (at most 4 times the
    calibrated count)."""
    mine = [bots[s] for s in ours]
    others = [bot for seat, bot in enumerate(bots) if seat not in ours]

    def levelled(state, deal_actions, timed, choose):
        our_moves = sum(b.moves for b in mine)
        their_moves = sum(b.moves for b in others)
        their_time = sum(b.seconds for b in others)
        simulations = sum(b.simulations_done for b in others)
        if our_moves and simulations and their_time > 0:
            mean = sum(b.seconds for b in mine) / our_moves
            per_simulation = their_time / simulations
            wanted = mean + (mean * their_moves - their_time) / CATCH_UP_MOVES
            count = round(wanted / per_simulation)
            timed.bot.simulations = min(count, 4 * calibrated)
        moves = timed.moves
        action = choose(state, deal_actions)
        if timed.moves > moves:  # a move with a choice: timed, searched
            timed.simulations_done += timed.bot.simulations
        return action

    for timed in others:
        timed.choose = partial(levelled, timed=timed, choose=timed.choose)


def outcome(task: dict, state, bots: list, ours: list[int]) -> dict:
    players = state.rules.players
    # A game cut short by --max-deals is ranked by its totals so far.
    ranking = state.places if state.is_over else places(state.totals, state.left)
    totals = state.totals
    theirs = [s for s in range(players) if s not in ours]
    return {
        "name": task["name"],
        "budget": task["budget"],
        "won": any(ranking[s] == 1 for s in ours),
        "diff": sum(totals[s] for s in ours) / len(ours)
        - sum(totals[s] for s in theirs) / len(theirs),
        "our_time": sum(bots[s].seconds for s in ours),
        "our_moves": sum(bots[s].moves for s in ours),
        "their_time": sum(bots[s].seconds for s in theirs),
        "their_moves": sum(bots[s].moves for s in theirs),
        "their_simulations": sum(bots[s].simulations_done for s in theirs),
    }


# Reporting.


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def summarise(name: str, results: list[dict], budget: float, extra: dict) -> dict:
    """Print one match-up at one budget; its figures."""
    (profile, _), opponent = MATCHUPS[name]
    n = len(results)
    wins = sum(r["won"] for r in results)
    low, high = wilson(wins, n)
    diffs = [r["diff"] for r in results]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    ours = sum(r["our_time"] for r in results) / max(
        1, sum(r["our_moves"] for r in results)
    )
    theirs = sum(r["their_time"] for r in results) / max(
        1, sum(r["their_moves"] for r in results)
    )
    japanese = profile == "japanese"
    what = "matches won" if japanese else "1st places"
    fair = 0.5 if japanese else 0.25
    equal = abs(theirs - ours) <= EQUAL_WITHIN * ours
    margin = 1.96 * sd / math.sqrt(n)
    line = (
        f"{name:<22} budget {1000 * budget:5.1f} ms  {n:>4} games  {what}: "
        f"{100 * wins / n:5.1f}% (95% {100 * low:.1f}-{100 * high:.1f}%, fair "
        f"{100 * fair:.0f}%)  score diff {mean:+7.1f} +/- {margin:.1f}"
        f"  CPU/move ours {1000 * ours:.1f} ms, theirs {1000 * theirs:.1f} ms "
        f"({'within' if equal else 'NOT within'} {100 * EQUAL_WITHIN:.0f}%)"
    )
    if "simulations" in extra:
        done = sum(r["their_simulations"] for r in results)
        moves = max(1, sum(r["their_moves"] for r in results))
        extra = {**extra, "mean_simulations": done / moves if done else None}
        line += f"; theirs calibrated {extra['simulations']} simulations a move"
        if done:
            line += f", {done / moves:.0f} on average levelled"
    print(line)
    figures = {
        "name": name,
        "budget_s": budget,
        "games": n,
        "share": wins / n,
        "wilson95": [low, high],
        "fair": fair,
        "score_diff": mean,
        "ours_cpu_ms": 1000 * ours,
        "theirs_cpu_ms": 1000 * theirs,
        "cpu_equal": equal,
        **extra,
    }
    if opponent == "openspiel":
        target = TARGETS[name]
        figures["target"] = target
        figures["meets"] = wins / n >= target
    return figures


def verdicts(figures: list[dict]) -> None:
    for f in figures:
        if "target" not in f:
            continue
        what = "matches won" if f["name"].startswith("japanese") else "1st places"
        low, high = f["wilson95"]
        print(
            f"verdict {f['name']} at {1000 * f['budget_s']:.1f} ms: {what} "
            f"{100 * f['share']:.1f}% (95% {100 * low:.1f}-{100 * high:.1f}%, "
            f"{f['games']} games; {'meets' if f['meets'] else 'is BELOW'} the "
            f"{100 * f['target']:.0f}% target); CPU/move ours "
            f"{f['ours_cpu_ms']:.1f} ms, theirs {f['theirs_cpu_ms']:.1f} ms"
            + ("" if f["cpu_equal"] else ", NOT equal within 10%")
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="per match-up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--budgets", type=float, nargs="+", default=list(BUDGETS))
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument(
        "--their-playouts", choices=["random", "autopilot"], default="random"
    )
    parser.add_argument(
        "--fixed",
        action="store_true",
        help="OpenSpiel's bot keeps the calibrated count all game",
    )
    parser.add_argument("--samples", type=int, default=LIVE_SAMPLES)
    parser.add_argument("--max-deals", type=int, help="cut games short (smoke runs)")
    parser.add_argument("--only", nargs="*", choices=list(MATCHUPS))
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    if min(args.games, args.jobs, args.samples, args.positions) < 1:
        parser.error("--games, --jobs, --samples and --positions must be at least 1")
    names = args.only or list(MATCHUPS)[:2]
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
    if args.max_deals:
        print(f"SMOKE RUN: every game cut short after {args.max_deals} deals")

    with Pool(args.jobs) as pool:
        tasks, extras = plan(pool, names, args)
        results: dict = {key: [] for key in extras}
        start = time.perf_counter()
        for result in pool.imap_unordered(play_one, tasks):
            results[(result["name"], result["budget"])].append(result)
    print(
        f"seed {args.seed}, {len(tasks)} games in {time.perf_counter() - start:.0f} s "
        f"with {args.jobs} processes"
    )
    figures = [
        summarise(name, results[(name, budget)], budget, extras[(name, budget)])
        for name, budget in extras
    ]
    verdicts(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


def plan(pool, names: list[str], args) -> tuple[list[dict], dict]:
    """Calibrate, then the games' tasks; the figures of each (match-up,
    budget) beyond its results."""
    extras: dict = {}
    base = {
        "seed": args.seed,
        "samples": args.samples,
        "policy": args.their_playouts,
        "max_deals": args.max_deals,
        "fixed": args.fixed,
    }
    openspiel = [n for n in names if MATCHUPS[n][1] == "openspiel"]
    calibration = [
        (*MATCHUPS[n][0], budget, args.seed, args.positions, args.their_playouts,
         args.max_deals)
        for n in openspiel
        for budget in args.budgets
    ]  # fmt: skip
    for name, found in zip(
        [n for n in openspiel for _ in args.budgets],
        pool.map(calibrate_openspiel, calibration),
        strict=True,
    ):
        print(
            f"calibration {found['profile']} at {1000 * found['budget']:.1f} ms: "
            f"ours {found['ours_ms']:.1f} ms a move on {args.positions} positions; "
            f"OpenSpiel ISMCTS "
            + ", ".join(
                f"{n} simulations {ms:.1f} ms" for n, ms in found["trial_ms"].items()
            )
            + f" -> {found['simulations']} simulations"
        )
        extras[(name, found["budget"])] = {"simulations": found["simulations"]}
    for name in names:
        if MATCHUPS[name][1] != "mc":
            continue
        (profile, options), _ = MATCHUPS[name]
        games = pool.map(
            calibrate_mc,
            [(profile, options, args.samples, args.seed + 100 * j, args.max_deals)
             for j in range(args.jobs)],
        )  # fmt: skip
        mean = sum(s for s, _ in games) / sum(m for _, m in games)
        print(
            f"MonteCarloBot(samples={args.samples}) thinks {1000 * mean:.1f} ms "
            f"a decision in {profile}: first budget {1000 * (mean + KEPT_BACK):.1f} ms"
        )
        extras[(name, mean + KEPT_BACK)] = {"samples": args.samples}
    tasks = [
        {**base, **extra, "name": name, "budget": budget, "index": index}
        for (name, budget), extra in extras.items()
        for index in range(args.games)
    ]
    return tasks, extras


if __name__ == "__main__":
    sys.exit(main())
