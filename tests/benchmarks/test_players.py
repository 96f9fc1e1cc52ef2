"""The real-player load test (``benchmarks/players.py``) runs end to end in
its smoke form: players sign in through the login page, play over the
site's sockets, and at the end the books balance, every finished game's
record replays and every acked action is stored once."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.servers]

BASE_DIR = Path(__file__).resolve().parents[2]


def test_the_smoke_run_prints_its_figures_and_integrity_holds():
    env = {**os.environ, "PYTHONPATH": str(BASE_DIR)}
    # The settings of the platform it starts are the site's, not the tests'.
    for name in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "benchmarks/players.py", "--smoke"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = done.stdout
    assert done.returncode == 0, out[-3000:] + done.stderr[-3000:]
    assert "integrity holds" in out
    # A stage's row: players, sign-ins, moves a second, p50/p99, errors.
    row = re.search(
        r"^\s+(\d+)\s+\d+\s+(\d+)\s+[\d.]+\s+([\d.]+)\s+\d+\s+\d+", out, re.M
    )
    assert row, out
    players, sign_ins, moves = int(row[1]), int(row[2]), float(row[3])
    assert players == 16 and sign_ins == 16 and moves > 0
    checks = re.search(
        r"ledger total (-?\d+), accounts off their entries (\d+); finished games "
        r"replayed (\d+)/(\d+); acked actions stored once (\d+)/(\d+)",
        out,
    )
    assert checks, out
    total, off, replayed, finished, once, acked = map(int, checks.groups())
    assert (total, off) == (0, 0)
    assert replayed == finished
    assert acked > 0 and once == acked
    assert re.search(r"largest stage held with 0 errors: \S+ players", out)
    assert re.search(r"the durable echo held .* largest tried 16", out)
