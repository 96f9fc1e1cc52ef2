"""The replay command's interface: input sources and exit statuses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (
    Path(__file__).parent / "examples" / "club-partial-recordmdexample-01.record.json"
)


def replay(*args, stdin: str | None = None):
    return subprocess.run(
        [sys.executable, "-m", "joker.replay", *args],
        cwd=REPO_ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL if stdin is None else None,
    )


def test_reads_the_record_from_standard_input():
    proc = replay(stdin=EXAMPLE.read_text())
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["totals"] == [-200, 50, 100, -200]


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", "42", '"deal"', "{"])
def test_not_a_record_exits_2_with_a_message_and_no_output(text):
    proc = replay(stdin=text)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "not a game record" in proc.stderr


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_prints_the_usage_and_exits_0(flag):
    proc = replay(flag)
    assert proc.returncode == 0
    assert proc.stdout.startswith("usage: python -m joker.replay")


def test_missing_file_exits_2():
    proc = replay("/no/such/record.json")
    assert proc.returncode == 2
    assert proc.stdout == ""


def test_a_broken_rule_exits_1_with_the_error_document():
    record = json.loads(EXAMPLE.read_text())
    # Seats 1-3 bid 0, so the dealer (seat 0) may not bid 1 in a 1-card deal.
    record["deals"][0]["actions"][1]["bid"] = 0
    record["deals"][0]["actions"][2]["bid"] = 0
    proc = replay(stdin=json.dumps(record))
    assert proc.returncode == 1
    error = json.loads(proc.stdout)["error"]
    assert (error["deal"], error["action"], error["code"]) == (0, 3, "illegal")


def test_needs_no_django_settings():
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "no.such.settings"}
    proc = subprocess.run(
        [sys.executable, "-m", "joker.replay", str(EXAMPLE)],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr


def test_the_old_address_runs_the_same_command():
    new = replay(str(EXAMPLE))
    old = subprocess.run(
        [sys.executable, "-m", "games.engine.replay", str(EXAMPLE)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert (old.returncode, old.stdout, old.stderr) == (0, new.stdout, "")
    assert new.returncode == 0
