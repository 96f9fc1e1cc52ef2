"""Playing strength of the practice bot (``IsmctsBot``) against OpenSpiel's
``ISMCTSBot`` made as strong as it fairly can be, from duplicate deals.

Run from the repository root::

    python benchmarks/bot_strength.py [--games N] [--seed S] [--jobs J]
                                      [--budgets B1 B2 ...] [--positions P]
                                      [--only NAME ...] [--max-deals D]
                                      [--uct-c C] [--final visits|value]
                                      [--sweep] [--json FILE]

The peer (``openspiel_peer.TunedISMCTSBot``) plays out with our policy and
bids and names trump in its playouts by the autopilot's heuristic, as ours
does; samples the deals it searches with a bid-aware sampler built once a
move; has its own seed for everything; and runs ``uct_c`` and the final
policy a sweep chose (``--sweep``, recorded in benchmarks/README.md).

Match-ups (``--only`` picks some by name), each in ``georgian-club``
classic (our bot in one seat against three of OpenSpiel's; our share of
first places, fair 25%, target 30%) and Japanese Joker to 21 (one against
one; matches won, fair 50%, target 60%):

* ``classic-cpu``, ``japanese-cpu``: equal CPU time per move, at each budget
  of ``--budgets`` (25 and 100 ms);
* ``classic-playouts``, ``japanese-playouts``: equal playouts per move, ours
  at the first budget (the peer's simulations a move set to our mean
  playouts a move so far: one simulation plays one deal out);
* ``classic-25-vs-100``, ``japanese-25-vs-100``: ours at 25 ms against the
  peer at 100 ms of CPU a move. Target: ours above the fair share.

Duplicate deals: game ``i`` plays deal set ``i // players`` (its shuffles
and first dealer) with our bot in seat ``i % players``, so every set of
deals is played from every seat. ``--games`` should be a multiple of 4.

Thinking time is the CPU time of the thinking thread (``time.thread_time``),
so other work on a shared machine takes none of it. OpenSpiel's bot searches
a number of simulations a move: calibrated on ``--positions`` shared
positions, then set again before each of its moves to meet the match-up's
mean (``bot_levelling``). Both sides' CPU time and playouts a move are
printed. Shares come with a 95% Wilson interval, score differences with a
95% normal margin. ``--max-deals`` cuts every game short (smoke runs and the
sweep: places are then by the totals so far).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bot_levelling as levelling  # noqa: E402

from joker import make_rules  # noqa: E402
from joker.bots import IsmctsBot, play_game  # noqa: E402
from joker.scoring import places  # noqa: E402

GAMES = {"classic": ("georgian-club", {}), "japanese": ("japanese", {"target": 21})}
BUDGETS = (0.025, 0.1)
THEIR_SECONDS = 0.1  # the peer's CPU a move in the 25-vs-100 match-ups
EQUAL_WITHIN = 0.10
TARGETS = {"classic": 0.30, "japanese": 0.60}
FAIR = {"classic": 0.25, "japanese": 0.50}
# name: (game, mode)
MATCHUPS = {
    f"{game}-{mode}": (game, mode)
    for mode in ("cpu", "playouts", "25-vs-100")
    for game in GAMES
}
SWEEP = [(c, final) for c in (0.25, 0.5, 1.0, 2.0) for final in ("visits", "value")]


def play_one(task: dict) -> dict:
    game_name, mode = MATCHUPS[task["name"]]
    profile, options = GAMES[game_name]
    from openspiel_peer import TunedISMCTSBot

    levelling.count_playouts()
    rules = make_rules(profile, options)
    players = rules.players
    index, seed = task["index"], task["seed"]
    deal_set, our_seat = divmod(index, players)
    bots = []
    for seat in range(players):
        bot_seed = seed * 7919 + deal_set * 8 + seat
        if seat == our_seat:
            bot = IsmctsBot(
                budget=task["budget"],
                rng=random.Random(bot_seed),
                timer=levelling.CLOCK,
            )
        else:
            bot = TunedISMCTSBot(task["simulations"], bot_seed, **task["peer"])
        bots.append(levelling.Timed(bot))
    target = {
        "cpu": levelling.our_mean_seconds,
        "playouts": levelling.our_mean_playouts,
        "25-vs-100": levelling.fixed_seconds(THEIR_SECONDS),
    }[mode]
    levelling.level(bots, [our_seat], target, task["simulations"], task["cap"])
    game = play_game(
        rules,
        bots,
        random.Random(seed * 1_000_003 + deal_set),
        deal_set % players,
        max_deals=task["max_deals"],
    )
    state = game.state
    ranking = state.places if state.is_over else places(state.totals, state.left)
    theirs = [s for s in range(players) if s != our_seat]
    return {
        "key": task["key"],
        "won": ranking[our_seat] == 1,
        "diff": state.totals[our_seat]
        - sum(state.totals[s] for s in theirs) / len(theirs),
        **{
            f"{side}_{what}": sum(getattr(bots[s], what) for s in seats)
            for side, seats in (("our", [our_seat]), ("their", theirs))
            for what in ("seconds", "moves", "playouts", "simulations_done")
        },
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


def per_move(results: list[dict], side: str, what: str) -> float:
    return sum(r[f"{side}_{what}"] for r in results) / max(
        1, sum(r[f"{side}_moves"] for r in results)
    )


def summarise(key: tuple, results: list[dict], extra: dict) -> dict:
    name, budget = key
    game_name, mode = MATCHUPS[name]
    n = len(results)
    wins = sum(r["won"] for r in results)
    low, high = wilson(wins, n)
    diffs = [r["diff"] for r in results]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    ours_ms = 1000 * per_move(results, "our", "seconds")
    theirs_ms = 1000 * per_move(results, "their", "seconds")
    figures = {
        "name": name,
        "mode": mode,
        "budget_s": budget,
        "games": n,
        "share": wins / n,
        "wilson95": [low, high],
        "fair": FAIR[game_name],
        "score_diff": mean,
        "score_margin95": 1.96 * sd / math.sqrt(n),
        "ours_cpu_ms": ours_ms,
        "theirs_cpu_ms": theirs_ms,
        "ours_playouts": per_move(results, "our", "playouts"),
        "theirs_playouts": per_move(results, "their", "playouts"),
        "theirs_simulations": per_move(results, "their", "simulations_done"),
        **extra,
    }
    if mode == "cpu":
        figures["equal"] = abs(theirs_ms - ours_ms) <= EQUAL_WITHIN * ours_ms
        figures["target"] = TARGETS[game_name]
    elif mode == "playouts":
        ours_p, theirs_p = figures["ours_playouts"], figures["theirs_simulations"]
        figures["equal"] = abs(theirs_p - ours_p) <= EQUAL_WITHIN * ours_p
        figures["target"] = TARGETS[game_name]
    else:
        figures["equal"] = (
            abs(theirs_ms - 1000 * THEIR_SECONDS) <= EQUAL_WITHIN * 1000 * THEIR_SECONDS
        )
        figures["target"] = FAIR[game_name]
    figures["meets"] = figures["share"] >= figures["target"] and (
        mode != "25-vs-100" or figures["share"] > FAIR[game_name]
    )
    return figures


def describe(f: dict) -> str:
    what = "matches won" if f["name"].startswith("japanese") else "1st places"
    low, high = f["wilson95"]
    how = {
        "cpu": f"equal CPU at {1000 * f['budget_s']:.0f} ms",
        "playouts": f"equal playouts, ours at {1000 * f['budget_s']:.0f} ms",
        "25-vs-100": f"ours at {1000 * f['budget_s']:.0f} ms, theirs at "
        f"{1000 * THEIR_SECONDS:.0f} ms",
    }[f["mode"]]
    target = f"the {100 * f['target']:.0f}% target" + (
        " (above the fair share)" if f["mode"] == "25-vs-100" else ""
    )
    return (
        f"verdict {f['name']} ({how}): {what} {100 * f['share']:.1f}% (95% "
        f"{100 * low:.1f}-{100 * high:.1f}%, {f['games']} games, fair "
        f"{100 * f['fair']:.0f}%; {'meets' if f['meets'] else 'MISSES'} {target}); "
        f"score diff {f['score_diff']:+.1f} +/- {f['score_margin95']:.1f}; a move: "
        f"CPU ours {f['ours_cpu_ms']:.1f} ms, theirs {f['theirs_cpu_ms']:.1f} ms; "
        f"playouts ours {f['ours_playouts']:.0f}, theirs {f['theirs_playouts']:.0f} "
        f"in {f['theirs_simulations']:.0f} simulations"
        + ("" if f["equal"] else " (the levelled figure off by over 10%)")
    )


def plan(pool, names: list[str], args, peer: dict) -> tuple[list[dict], dict]:
    """Calibrate each game once, then the tasks of every match-up."""
    games = sorted({MATCHUPS[name][0] for name in names})
    budgets = sorted({*args.budgets, 0.025})
    found = dict(
        zip(
            games,
            pool.map(
                levelling.calibrate,
                [(*GAMES[g], budgets, args.seed, args.positions, peer, args.max_deals)
                 for g in games],
            ),
            strict=True,
        )
    )  # fmt: skip
    for game_name, f in found.items():
        print(
            f"calibration {game_name} on {args.positions} positions: ours "
            + ", ".join(
                f"{1000 * b:.0f} ms budget -> {1000 * s:.1f} ms and {p:.0f} playouts"
                for b, (s, p) in f["ours"].items()
            )
            + "; OpenSpiel "
            + ", ".join(
                f"{n} simulations {1000 * t:.1f} ms" for n, t in f["trial"].items()
            )
        )
    extras, tasks = {}, []
    for name in names:
        game_name, mode = MATCHUPS[name]
        f = found[game_name]
        for budget in args.budgets if mode == "cpu" else [min(args.budgets)]:
            seconds, playouts = f["ours"][budget]
            start = {
                "cpu": levelling.simulations_for(f, seconds),
                "playouts": max(2, round(playouts)),
                "25-vs-100": levelling.simulations_for(f, THEIR_SECONDS),
            }[mode]
            key = (name, budget)
            extras[key] = {"calibrated_simulations": start}
            tasks += [
                {"key": key, "name": name, "budget": budget, "index": index,
                 "seed": args.seed, "simulations": start, "cap": 4 * start,
                 "peer": peer, "max_deals": args.max_deals}
                for index in range(args.games)
            ]  # fmt: skip
    return tasks, extras


def run_games(pool, names, args, peer) -> list[dict]:
    tasks, extras = plan(pool, names, args, peer)
    results: dict = {key: [] for key in extras}
    start = time.perf_counter()
    for result in pool.imap_unordered(play_one, tasks):
        results[tuple(result["key"])].append(result)
    print(
        f"seed {args.seed}, {len(tasks)} games in {time.perf_counter() - start:.0f} s "
        f"with {args.jobs} processes"
    )
    return [summarise(key, results[key], extras[key]) for key in extras]


def sweep(pool, args) -> list[dict]:
    """Japanese at equal CPU and the first budget, for each (uct_c, final)."""
    rows = []
    args.budgets = [min(args.budgets)]
    for uct_c, final in SWEEP:
        peer = {"uct_c": uct_c, "final": final}
        (f,) = run_games(pool, ["japanese-cpu"], args, peer)
        f.update(peer)
        rows.append(f)
        print(
            f"sweep uct_c {uct_c:<5g} final {final:<7} ours {100 * f['share']:5.1f}% "
            f"of {f['games']}, score diff {f['score_diff']:+.2f} +/- "
            f"{f['score_margin95']:.2f}",
            flush=True,
        )
    best = min(rows, key=lambda r: r["score_diff"])
    print(f"strongest peer: uct_c {best['uct_c']:g}, final {best['final']}")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="per match-up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--budgets", type=float, nargs="+", default=list(BUDGETS))
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--max-deals", type=int, help="cut games short")
    parser.add_argument("--only", nargs="*", choices=list(MATCHUPS))
    parser.add_argument("--uct-c", type=float, help="the peer's (default: tuned)")
    parser.add_argument("--final", choices=["visits", "value"])
    parser.add_argument("--sweep", action="store_true", help="tune the peer")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    if min(args.games, args.jobs, args.positions) < 1:
        parser.error("--games, --jobs and --positions must be at least 1")
    try:
        from openspiel_peer import TUNED
    except ImportError:
        print("open_spiel is NOT installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    peer = {
        "uct_c": args.uct_c or TUNED["uct_c"],
        "final": args.final or TUNED["final"],
    }
    print(
        f"bots: {os.cpu_count()} CPUs, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start (thinking "
        f"is CPU time); peer uct_c {peer['uct_c']:g}, final policy {peer['final']}"
    )
    if args.max_deals:
        print(f"every game cut short after {args.max_deals} deals")
    with Pool(args.jobs) as pool:
        if args.sweep:
            figures = sweep(pool, args)
        else:
            names = args.only or list(MATCHUPS)
            figures = run_games(pool, names, args, peer)
            for f in figures:
                print(describe(f))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
