"""Every example record goes through the real replay command.

Each ``NAME.record.json`` in ``examples/`` has a ``NAME.expected.json`` with
the exit status and output the command must give (RECORD.md): the whole
output for a valid record (``legal`` lists compared as sets), the error's
``deal``, ``action`` and ``code`` for a broken one, and an empty stdout when
the input is not a record at all.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parent / "examples"
REPO_ROOT = Path(__file__).resolve().parents[2]
NAMES = sorted(
    p.name.removesuffix(".record.json") for p in EXAMPLES.glob("*.record.json")
)


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def normalised(value, key=None):
    """Lists under a ``legal`` key become sorted sets; the order is free."""
    if isinstance(value, dict):
        return {k: normalised(v, k) for k, v in value.items()}
    if isinstance(value, list):
        if key == "legal":
            return sorted({canonical(normalised(v)) for v in value})
        return [normalised(v) for v in value]
    return value


def run_replay(path: Path) -> subprocess.CompletedProcess:
    # The address the published examples give, kept beside joker.replay.
    return subprocess.run(
        [sys.executable, "-m", "games.engine.replay", str(path)],
        cwd=REPO_ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_examples_are_present():
    assert len(NAMES) >= 30


@pytest.mark.parametrize("name", NAMES)
def test_example(name):
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    proc = run_replay(EXAMPLES / f"{name}.record.json")
    assert proc.returncode == expected["exit"], proc.stdout + proc.stderr
    if expected["exit"] == 2:
        assert proc.stdout.strip() == ""
        assert proc.stderr.strip()
        return
    got = json.loads(proc.stdout)
    want = expected["output"]
    if expected["exit"] == 1:
        keys = ("deal", "action", "code")
        assert {k: got["error"][k] for k in keys} == {k: want["error"][k] for k in keys}
        assert got["error"]["message"]
        return
    assert normalised(got) == normalised(want)
