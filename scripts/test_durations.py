"""The tables of docs/testing.md, from one run of the suite.

    make test PYTEST_ARGS="--durations=50 --junitxml=var/junit.xml" | tee var/test.log
    python scripts/test_durations.py var/junit.xml var/test.log

prints Markdown: the time by folder (the sum of every test's setup, call and
teardown, from the JUnit report) and the 50 slowest phases (pytest's
``--durations`` list, where a slow ``setup`` is a slow fixture). Under
pytest-xdist the folders' times add up the workers' time, which is more
than the run's wall time.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict

DURATION = re.compile(r"^([\d.]+)s (setup|call|teardown)\s+(\S+)")


def folder_of(classname: str) -> str:
    """tests.live.test_timers -> tests/live; tests.test_api -> tests/."""
    parts = classname.split(".")
    modules = [part for part in parts if not part[:1].isupper()]
    folder = modules[:-1] if len(modules) > 1 else modules
    return "/".join(folder) + ("" if len(folder) > 1 else "/")


def by_folder(junit_path: str) -> str:
    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    root = ET.parse(junit_path).getroot()
    for case in root.iter("testcase"):
        folder = folder_of(case.get("classname", ""))
        seconds[folder] += float(case.get("time", 0))
        counts[folder] += 1
    lines = ["| folder | tests | seconds |", "|---|---:|---:|"]
    for folder in sorted(seconds, key=lambda folder: seconds[folder], reverse=True):
        lines.append(f"| `{folder}` | {counts[folder]} | {seconds[folder]:.0f} |")
    total = sum(seconds.values())
    lines.append(f"| all | {sum(counts.values())} | {total:.0f} |")
    return "\n".join(lines)


def slowest(log_path: str, limit: int = 50) -> str:
    lines = ["| seconds | phase | test |", "|---:|---|---|"]
    with open(log_path, errors="replace") as log:
        rows = [m.groups() for line in log if (m := DURATION.match(line.strip()))]
    for seconds, phase, test in rows[:limit]:
        lines.append(f"| {float(seconds):.1f} | {phase} | `{test}` |")
    return "\n".join(lines)


if __name__ == "__main__":
    junit, log = sys.argv[1:3]
    print("### Time by folder\n")
    print(by_folder(junit))
    print("\n### The 50 slowest phases\n")
    print(slowest(log))
