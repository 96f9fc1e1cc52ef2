"""The live tables' load test (``benchmarks/live_tables.py``) runs end to end
in its smoke form (run_all.py's), in both versions of the game protocol:
every phase (the durable echo raw and through the Channels stack, the
moves) completes without an error, and the verdicts name both echoes and
the servers' CPU a move."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.servers]

BASE_DIR = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("protocol", ["1", "2"])
def test_the_smoke_run_plays_every_phase_without_an_error(protocol):
    env = {**os.environ, "PYTHONPATH": str(BASE_DIR)}
    # The settings of the servers it starts are the site's, not the tests'.
    for name in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    done = subprocess.run(
        [
            sys.executable, "benchmarks/live_tables.py", "--tables", "2",
            "--moves", "10", "--time-limit", "20", "--pairs", "1",
            "--protocol", protocol,
        ],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, out[-3000:] + done.stderr[-3000:]
    phases = re.findall(
        r"^\d (durable echo|Channels echo|moves, protocol \d)", out, re.M
    )
    assert phases == [
        "durable echo",
        "Channels echo",
        f"moves, protocol {protocol}",
        "durable echo",
        "Channels echo",
    ], out
    assert "0 errors" in out and "(meets the 0 target)" in out, out
    assert re.search(r"moves/s [\d.]+x the durable echo's frames/s", out), out
    assert re.search(r"moves/s [\d.]+x the Channels echo's frames/s", out), out
    assert re.search(r"servers' CPU [\d.]+ ms a move", out), out
