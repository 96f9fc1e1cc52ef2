"""Every benchmark in its headline form, one after another; their verdicts in
one table, kept in benchmarks/results/.

Run from the repository root, on a quiet machine, after
``make install`` and ``pip install -e '.[bench]'``::

    python benchmarks/run_all.py [--only NAME ...] [--port P] [--smoke]

Each benchmark runs as a process of its own in its headline form (the one
its README section reports: its default counts, or the live tables' 200
tables). A run with ``--only`` writes ``<date>-part`` files. Those that
need servers start their own (benchmarks/servers.py): an embedded
PostgreSQL and Redis in a private directory, and uvicorn on ``--port`` and
the ports after it (free ports without it). ``players.py`` is left out:
a long measurement of its own.

Printed at the end, and written to ``benchmarks/results/<date>.json`` (every
verdict line, the figures of the benchmarks that write them, the run's
seconds, the machine, the commit) and ``<date>.md`` (the table, as the
README shows it): a row per verdict line, marked ``ok`` when it meets its
target and ``MISS`` when not. ``--smoke`` runs tiny counts only, to prove
that everything runs; its files are named ``<date>-smoke`` and its table
says so: its figures are not results.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE_DIR = HERE.parent
RESULTS = HERE / "results"
# Lines that judge a figure against its target, and the words of a miss.
VERDICT = re.compile(r"^(verdict|met:|MISSED:)", re.IGNORECASE)
MISSED = re.compile(r"\b(BELOW|MISSES|MISSED|FAIL|NOT|missed)\b")


@dataclass
class Benchmark:
    name: str
    script: str
    args: tuple = ()
    smoke: tuple = ()  # instead of the headline counts, with --smoke
    port: bool = False  # takes --port (its servers on that port and the next)
    json: bool = False  # takes --json FILE


BENCHMARKS = (
    # Instruction counts under valgrind beside CPU time: a few minutes.
    Benchmark(
        "engine speed",
        "engine_speed.py",
        ("--no-views", "--instructions"),
        ("--no-views", "--slices", "5", "--slice", "0.05"),
        json=True,
    ),
    Benchmark(
        "bots vs OpenSpiel ISMCTS",
        "bot_strength.py",
        # Deal by deal on duplicate deal sets: the headline cut against the
        # peer fits an hour of two cores (benchmarks/README.md); the
        # match-ups against today's bot are a run of their own.
        ("--headline",),
        ("--smoke", "--only", "classic-cpu", "japanese-cpu"),
        json=True,
    ),
    # The live tables' headline forms are their README's: 200 tables.
    Benchmark(
        "live tables, flat out",
        "live_tables.py",
        ("--tables", "200", "--moves", "100", "--pairs", "2"),
        ("--tables", "2", "--moves", "10", "--time-limit", "20", "--pairs", "1"),
        port=True,
    ),
    # Paced phases last moves x think seconds each: one pair, A/B/A.
    Benchmark(
        "live tables, paced",
        "live_tables.py",
        (
            "--tables",
            "200",
            "--moves",
            "16",
            "--think",
            "4",
            "--time-limit",
            "200",
            "--pairs",
            "1",
        ),
        (
            "--tables",
            "2",
            "--moves",
            "5",
            "--think",
            "0.2",
            "--time-limit",
            "20",
            "--pairs",
            "1",
        ),
        port=True,
    ),  # fmt: skip
    # Bot tables at human pace, the bot at the compiled bot's 25 ms: two
    # phases of two minutes (the peer's 2 tables, then 50).
    Benchmark(
        "bot tables",
        "bot_tables.py",
        ("--bot-seconds", "0.025"),
        (
            "--tables",
            "3",
            "--peer-tables",
            "1",
            "--seconds",
            "10",
            "--bot-seconds",
            "0.025",
        ),
        port=True,
    ),  # fmt: skip
    # Long enough for a few 2-second turns to run out.
    Benchmark("timers", "timers.py", (), ("--games", "5", "--seconds", "8"), True),
    Benchmark("flood", "flood.py", (), ("--moves", "10", "--time-limit", "20"), True),
    Benchmark(
        "lockout",
        "lockout.py",
        (),
        ("--seconds", "3", "--rate", "2", "--check-every", "1"),
        True,
    ),
    Benchmark(
        "leaderboard", "leaderboard.py", (), ("--players", "1000", "--requests", "100")
    ),
    Benchmark(
        "api fuzz",
        "../scripts/api_fuzz.py",
        (),
        ("--minutes", "0.2"),
        port=True,
    ),
    Benchmark(
        "swiss pairings",
        "swiss_quality.py",
        (),
        ("--tournaments", "3", "--full-fields", "1"),
    ),
)


def run(bench: Benchmark, args, scratch: Path) -> dict:
    """One benchmark as a process of its own; what it printed and judged."""
    cmd = [sys.executable, str(HERE / bench.script)]
    cmd += list(bench.smoke if args.smoke else bench.args)
    if bench.port and args.port:
        cmd += ["--port", str(args.port)]
    figures_path = scratch / f"{bench.script}.json"
    if bench.json:
        cmd += ["--json", str(figures_path)]
    print(f"\n== {bench.name}: {' '.join(cmd[1:])}", flush=True)
    began = time.monotonic()
    done = subprocess.run(cmd, cwd=BASE_DIR, capture_output=True, text=True)
    seconds = time.monotonic() - began
    print(done.stdout, end="", flush=True)
    if done.returncode:
        print(done.stderr[-3000:], end="", file=sys.stderr)
    lines = [line.strip() for line in done.stdout.splitlines()]
    verdicts = [line for line in lines if VERDICT.search(line)]
    result = {
        "command": cmd[1:],
        "returncode": done.returncode,
        "seconds": round(seconds, 1),
        "verdicts": verdicts,
    }
    if bench.json and figures_path.exists():
        result["figures"] = json.loads(figures_path.read_text())
    return result


def table(results: dict, smoke: bool) -> str:
    """The short table: a row per verdict line (or per failed run)."""
    rows = ["| benchmark | verdict | |", "|---|---|---|"]
    for name, result in results.items():
        if result["returncode"] and not result["verdicts"]:
            rows.append(f"| {name} | exited {result['returncode']} | ERROR |")
        for line in result["verdicts"]:
            mark = "MISS" if MISSED.search(line) else "ok"
            rows.append(f"| {name} | {line.replace('|', '/')} | {mark} |")
    title = (
        "SMOKE RUN with tiny counts: proves the benchmarks run; NOT results"
        if smoke
        else "Headline run"
    )
    return f"{title}\n\n" + "\n".join(rows) + "\n"


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    names = [bench.name for bench in BENCHMARKS]
    parser.add_argument("--only", nargs="+", choices=names, metavar="NAME")
    parser.add_argument("--port", type=int, help="first port of the uvicorn servers")
    parser.add_argument("--smoke", action="store_true", help="tiny counts only")
    args = parser.parse_args(argv)

    started = datetime.datetime.now(datetime.UTC)
    load_at_start = os.getloadavg()
    print(
        f"run_all: {os.cpu_count()} CPUs, load average "
        f"{' '.join(f'{x:.2f}' for x in load_at_start)} at the start"
    )
    results = {}
    with tempfile.TemporaryDirectory(prefix="run_all") as scratch:
        for bench in BENCHMARKS:
            if args.only and bench.name not in args.only:
                continue
            results[bench.name] = run(bench, args, Path(scratch))
    text = table(results, args.smoke)
    print(f"\n{text}")
    stem = started.strftime("%Y-%m-%d") + ("-smoke" if args.smoke else "")
    if args.only:  # a part run never overwrites the whole run's files
        stem += "-part"
    RESULTS.mkdir(exist_ok=True)
    record = {
        "started": started.isoformat(timespec="seconds"),
        "commit": commit(),
        "smoke": args.smoke,
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "load_average_at_start": load_at_start,
            "load_average_at_end": os.getloadavg(),
        },
        "benchmarks": results,
    }
    (RESULTS / f"{stem}.json").write_text(json.dumps(record, indent=2) + "\n")
    (RESULTS / f"{stem}.md").write_text(text)
    print(f"written: {RESULTS / stem}.json and .md")
    return 1 if any(r["returncode"] for r in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
