"""Instructions per decision, for ``engine_speed.py --instructions``: a count
that other work on a busy machine does not change, where CPU time can
(caches, frequency, a sibling hyperthread).

Each engine of ``engine_speed`` (our compiled loop against OpenSpiel's C++
loop, whole deals, one call a deal each; our Python engine and the C++
loop, dealing excluded and included) plays a fixed number of units in a process of its
own under ``valgrind --tool=callgrind``, and again with none; the
difference of the two counts of instructions (``Collected``), over the
decisions the units took, is that engine's instructions per decision, so
that starting Python and building the pools cancel out. ``PYTHONHASHSEED``
is fixed so that both runs do the same work before the units.

Run alone (as the worker)::

    python benchmarks/engine_instructions.py GAME SIDE MODE UNITS SEED
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Units a measured run plays: enough decisions that the count dwarfs the
# noise of the runs' common part.
UNITS = {
    ("classic", "core"): 400,
    ("japanese", "core"): 4000,
    ("classic", "ours"): 4,
    ("japanese", "ours"): 10,
    ("classic", "cpp"): 60,
    ("japanese", "cpp"): 150,
}
# Our compiled loop's instructions a decision over the C++ loop's, at most.
LOOP_TARGET = 1.0
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def worker(game: str, side: str, mode: str, units: int, seed: int) -> int:
    """Play ``units`` units of one engine; print its decisions."""
    sys.path.insert(0, str(HERE.parent))
    sys.path.insert(0, str(HERE))
    from engine_peers import (
        POOL_GAMES,
        CoreDeals,
        our_dealt_games,
        play_ours,
        play_ours_dealt,
        rules_of,
        schedule_for,
    )

    rules = rules_of(game)
    rng = random.Random(seed)
    if side == "core":
        play = CoreDeals(rules).whole
    elif side == "ours":
        pool = our_dealt_games(rules, rng, POOL_GAMES)
        play = (
            (lambda r: play_ours_dealt(pool, r))
            if mode == "dealt"
            else (lambda r: play_ours(rules, r))
        )
    else:
        import pyspiel

        schedule = schedule_for(pyspiel, game, rules, rng)
        schedule.fill_pools(rng, 64)
        play = schedule.dealt_cpp if mode == "dealt" else schedule.whole_cpp
    decisions = 0
    for _ in range(units):
        decisions += play(rng)[1]
    print(decisions)
    return 0


def count(
    game: str,
    side: str,
    mode: str,
    units: int,
    seed: int,
    out: str = "/dev/null",
    options: tuple = (),
) -> tuple[int, int]:
    """(instructions, decisions) of one run under callgrind, with
    ``options``; its profile goes to ``out``."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *options,
            sys.executable, str(Path(__file__)), game, side, mode, str(units),
            str(seed),
        ],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    return int(COLLECTED.search(done.stderr).group(1)), int(done.stdout.split()[-1])


def per_decision(game: str, side: str, mode: str, seed: int) -> float:
    units = UNITS[game, side]
    base, _ = count(game, side, mode, 0, seed)
    total, decisions = count(game, side, mode, units, seed)
    return (total - base) / decisions


def where(game: str, seed: int, top: int = 20) -> None:
    """Where our compiled loop's instructions go: ``callgrind_annotate`` of
    a run of it ten times the measured one, so that the deals outweigh
    starting Python, its most costly functions (own instructions)."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        count(game, "core", "whole", 10 * UNITS[game, "core"], seed, out)
        done = subprocess.run(
            ["callgrind_annotate", "--threshold=99", out],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    total = next((line for line in lines if "PROGRAM TOTALS" in line), "")
    start = next(
        (i for i, line in enumerate(lines) if "file:function" in line), len(lines)
    )
    print(f"\n{game}: our compiled loop under callgrind, its costliest functions")
    print(total)
    print("\n".join(lines[start : start + top + 2]))


def loop_against_loop(games, seed: int, annotate: bool) -> dict:
    """Our compiled random loop against the C++ loop, whole deals, one call
    a deal each: instructions per decision, printed; target at most 1.0x."""
    print(f"\n{'loop against loop, instructions per decision':<48}{'ours':>10}"
          f"{'C++ loop':>10}{'ours / C++':>12}")  # fmt: skip
    results = {}
    for game in games:
        ours = per_decision(game, "core", "whole", seed)
        cpp = per_decision(game, "cpp", "whole", seed)
        met = ours <= LOOP_TARGET * cpp
        results[f"{game}_loop"] = {"ours": ours, "cpp": cpp, "ratio": ours / cpp}
        print(
            f"{game + ', whole deals, compiled':<48}{ours:>10,.0f}{cpp:>10,.0f}"
            f"{ours / cpp:>11.3f}x"
        )
        print(
            f"verdict {game} loop: ours / OpenSpiel's C++ loop {ours / cpp:.3f}x "
            f"instructions per decision ({'meets' if met else 'MISSES'} the "
            f"{LOOP_TARGET:.1f}x target)"
        )
        if annotate or not met:
            where(game, seed)
    return results


def measure(games, seed: int, annotate: bool = False, loop_only: bool = False):
    """Instructions per decision of every engine, printed; None without
    valgrind."""
    if shutil.which("valgrind") is None:
        print("instructions NOT counted: valgrind is not installed")
        return None
    results = loop_against_loop(games, seed, annotate)
    if loop_only:
        return results
    print(f"\n{'instructions per decision (callgrind)':<48}{'ours':>10}"
          f"{'C++ loop':>10}{'ours / C++':>12}")  # fmt: skip
    for game in games:
        for mode, what in (("dealt", "dealing excluded"), ("whole", "dealing paid")):
            ours = per_decision(game, "ours", mode, seed)
            cpp = per_decision(game, "cpp", mode, seed)
            results[f"{game}_{mode}"] = {"ours": ours, "cpp": cpp, "ratio": cpp / ours}
            print(
                f"{game + ', ' + what:<48}{ours:>10,.0f}{cpp:>10,.0f}"
                f"{cpp / ours:>11.3f}x"
            )
    return results


if __name__ == "__main__":
    game, side, mode, units, seed = sys.argv[1:6]
    sys.exit(worker(game, side, mode, int(units), int(seed)))
