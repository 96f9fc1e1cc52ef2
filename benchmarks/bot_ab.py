"""Two configurations of the practice bot (``IsmctsBot``) against each other
on duplicate deal sets: is variant A stronger than B?

Run from the repository root::

    python benchmarks/bot_ab.py [--game classic|japanese] [--sets N] [--seed S]
                                [--jobs J] [--budget-a S] [--budget-b S]
                                [--a KEY=VALUE ...] [--b KEY=VALUE ...]
                                [--cards N ...]
                                [--sets-file FILE] [--from-sets FILE]

The deal sets, their play and their score are ``bot_strength.py``'s
(``deal_set``, ``play_rotations``, ``interval``): each deal set is one
deal, its size from the schedule and the game before it played by the
autopilot, played from every seat rotation with A in one seat and B in the
others (classic: three B; Japanese Joker: one). A set's score is the mean
over its rotations of A's result less the others' mean (classic: deal
points; Japanese: tricks); the figure is the mean over sets with a 95% t
interval over sets; ``--cards`` keeps only the deal sets of those sizes.

Each side thinks on CPU time (``time.thread_time``) within its budget a
move (``--budget-a``, ``--budget-b``; the normal level's for the game by
default). ``--a``/``--b`` set ``joker.bots.ismcts.SearchOptions`` fields
(``--a bid_budget=4``); the defaults are the bot's. Every set's result is
appended to ``--sets-file`` (JSON lines) as it ends, and ``--from-sets``
reports a file's sets again, so that a run cut short still reports.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bot_strength import (  # noqa: E402
    CLOCK,
    GAMES,
    deal_place,
    deal_set,
    interval,
    p90,
    play_rotations,
)

from joker import apply, make_rules  # noqa: E402
from joker.bots.ismcts import LEVELS, IsmctsBot, SearchOptions  # noqa: E402


class Side:
    """A bot in a seat and the CPU it used on each move it chose."""

    def __init__(self, bot: IsmctsBot):
        self.bot = bot
        self.seconds: list[float] = []

    def choose(self, state, deal_actions):
        start = CLOCK()
        action = self.bot.choose(state, deal_actions)
        self.seconds.append(CLOCK() - start)
        return action


def options_of(pairs: list[str]) -> SearchOptions:
    """``SearchOptions`` from ``key=value`` strings, each value of its
    field's type."""
    fields = {field.name: field for field in dataclasses.fields(SearchOptions)}
    values = {}
    for pair in pairs:
        key, _, text = pair.partition("=")
        if key not in fields:
            raise SystemExit(f"unknown option {key!r}: one of {sorted(fields)}")
        kind = type(fields[key].default)
        values[key] = (
            text.lower() in ("1", "true", "yes") if kind is bool else kind(text)
        )
    return SearchOptions(**values)


def set_seed(seed: int, index: int) -> int:
    """The seed of a deal set (``bot_strength``'s)."""
    return seed * 1_000_003 + index


def play_set(task: dict) -> dict:
    """Every rotation of one deal set, A in each seat in turn."""
    started = time.process_time()
    rules = make_rules(*GAMES[task["game"]])
    before, deal = deal_set(rules, set_seed(task["seed"], task["index"]))
    dealt = apply(before, deal)
    a, b = ((task[f"budget_{x}"], options_of(task[x])) for x in ("a", "b"))

    def seated(seat: int, is_a: bool, bot_seed: int) -> Side:
        budget, options = a if is_a else b
        rng = random.Random(bot_seed)
        return Side(IsmctsBot(budget=budget, rng=rng, timer=CLOCK, options=options))

    seed = task["seed"] * 100_003 + task["index"]
    scores, sides_a, sides_b = play_rotations(dealt, seated, seed)
    return {
        "index": task["index"],
        "config": {
            k: task.get(k)
            for k in ("game", "seed", "budget_a", "budget_b", "a", "b", "cards")
        },
        "cards": dealt.cards_each,
        "score": statistics.fmean(scores),
        "rotations": scores,
        "cpu_s": time.process_time() - started,
        "a_seconds": [x for side in sides_a for x in side.seconds],
        "b_seconds": [x for side in sides_b for x in side.seconds],
    }


def report(sets: list[dict]) -> None:
    if not sets:
        print("no deal set finished")
        return
    config = sets[0]["config"]
    unit = "tricks" if config["game"] == "japanese" else "points"
    mean, low, high = interval([s["score"] for s in sets])
    cpu = {}
    for side in "ab":
        seconds = [x for s in sets for x in s[f"{side}_seconds"]]
        cpu[side] = (1000 * statistics.fmean(seconds), 1000 * p90(seconds))
    print(
        f"A {' '.join(config['a']) or 'defaults'} at {1000 * config['budget_a']:g} ms "
        f"against B {' '.join(config['b']) or 'defaults'} at "
        f"{1000 * config['budget_b']:g} ms, {config['game']}, seed {config['seed']}"
        + (f", deals of {config['cards']} cards" if config.get("cards") else "")
        + ": "
        f"A less the others {mean:+.2f} {unit} a deal (95% {low:+.2f} to {high:+.2f} "
        f"over {len(sets)} deal sets); CPU a move A {cpu['a'][0]:.1f} ms "
        f"(p90 {cpu['a'][1]:.1f}), B {cpu['b'][0]:.1f} ms (p90 {cpu['b'][1]:.1f}); "
        f"{sum(s['cpu_s'] for s in sets):.0f} CPU s in all"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=list(GAMES), default="classic")
    parser.add_argument("--sets", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget-a", type=float, help="seconds a move")
    parser.add_argument("--budget-b", type=float, help="seconds a move")
    parser.add_argument("--a", nargs="*", default=[], metavar="KEY=VALUE")
    parser.add_argument("--b", nargs="*", default=[], metavar="KEY=VALUE")
    parser.add_argument(
        "--cards",
        type=int,
        nargs="*",
        help="only the deal sets of these sizes (cards each; e.g. 9, whose "
        "trump is named in classic)",
    )
    parser.add_argument("--sets-file", type=Path, help="append each set's result")
    parser.add_argument("--from-sets", type=Path, help="only report this file's sets")
    args = parser.parse_args(argv)
    if args.from_sets:
        runs: dict[str, list] = {}  # by configuration, should a file mix them
        for line in args.from_sets.read_text().splitlines():
            if line.strip():
                result = json.loads(line)
                runs.setdefault(json.dumps(result["config"]), []).append(result)
        for found in runs.values():
            report(found)
        return 0
    if min(args.sets, args.jobs) < 1:
        parser.error("--sets and --jobs must be at least 1")
    options_of(args.a), options_of(args.b)  # fail early on a wrong knob
    normal = LEVELS["normal"][args.game]
    task = {
        "game": args.game,
        "seed": args.seed,
        "budget_a": args.budget_a or normal,
        "budget_b": args.budget_b or normal,
        "a": args.a,
        "b": args.b,
        "cards": args.cards,
    }
    rules = make_rules(*GAMES[args.game])
    indices = (
        i
        for i in range(1 << 30)
        if not args.cards
        or rules.cards_in_deal(deal_place(rules, set_seed(args.seed, i))[2])
        in args.cards
    )
    tasks = [{**task, "index": next(indices)} for _ in range(args.sets)]
    sets = []
    start = time.perf_counter()
    saved = args.sets_file.open("a") if args.sets_file else None
    with Pool(args.jobs) as pool:
        for result in pool.imap_unordered(play_set, tasks):
            sets.append(result)
            if saved:
                saved.write(json.dumps(result) + "\n")
                saved.flush()
            if len(sets) % max(1, args.sets // 10) == 0:
                print(
                    f"  {len(sets)}/{args.sets} deal sets, "
                    f"{time.perf_counter() - start:.0f} s",
                    flush=True,
                )
    report(sets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
