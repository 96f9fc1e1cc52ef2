"""The review benchmark (``benchmarks/review.py``) runs in its smoke form
and prints, for each game, the review's CPU next to the bot's and its
verdict."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def test_the_smoke_run_prints_both_games_figures():
    done = subprocess.run(
        [sys.executable, "benchmarks/review.py", "--smoke"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = done.stdout
    assert done.returncode == 0, out[-3000:] + done.stderr[-3000:]
    for game in ("classic", "japanese"):
        verdict = re.search(
            rf"^verdict {game}: review median ([\d.]+) CPU s a deal .* "
            r"the normal bot's thinking ([\d.]+) s",
            out,
            re.M,
        )
        assert verdict, out
        assert float(verdict[2]) > 0
    # A row a sample: seed, decisions, forced, review s, bot s, ratio.
    rows = re.findall(r"^\s+1\s+(\d+)\s+(\d+)\s+[\d.]+\s+[\d.]+\s+[\d.]+x$", out, re.M)
    assert len(rows) == 2, out
    assert all(int(decisions) > int(forced) for decisions, forced in rows)
    assert "meets the 5 s target" in out
