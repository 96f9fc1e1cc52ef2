"""Two Celery beats, as a deployment that runs a standby would: one sends
the periodic tasks, the other stands by, and takes over within seconds
when the first is killed (config.beat)."""

from __future__ import annotations

import re
import signal
import sys
import time

import pytest

from tests.live.conftest import start

pytestmark = pytest.mark.django_db(transaction=True)

BEAT = [
    sys.executable, "-m", "celery", "-A", "config", "beat",
    "--loglevel", "INFO", "--max-interval", "1",
]  # fmt: skip
SENT_SWEEP = re.compile(r"Sending due task sweep-lost-timers \(games\.tasks\.sweep\)")
LEADS = "beat: leads"


def sweeps(process) -> list[str]:
    return SENT_SWEEP.findall(process.log_path.read_text(errors="replace"))


def wait_until(what, seconds: float, why: str) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, why
        time.sleep(0.2)


def leads(process) -> bool:
    return LEADS in process.log_path.read_text(errors="replace")


def test_two_beats_send_each_periodic_task_once_and_a_standby_takes_over(
    live_env, log_dir, worker
):
    first = start("beat-1", BEAT, live_env, log_dir)
    second = start("beat-2", BEAT, live_env, log_dir)
    try:
        wait_until(lambda: leads(first) or leads(second), 30, "no beat leads")
        time.sleep(1)  # the other has tried for the lock by now
        leader, standby = (first, second) if leads(first) else (second, first)
        assert not leads(standby)

        # The sweep is due every second (tests/live/support.py): over ten
        # seconds the two beats together send it about ten times, not twenty.
        before = len(sweeps(leader))
        time.sleep(10)
        sent = len(sweeps(leader)) - before
        assert 8 <= sent <= 12, sent
        assert sweeps(standby) == []

        # The leader killed outright: its session, and its lock, go with it.
        leader.proc.send_signal(signal.SIGKILL)
        leader.proc.wait(timeout=10)
        killed_at = time.monotonic()
        wait_until(lambda: leads(standby), 10, "the standby did not take over")
        took = time.monotonic() - killed_at
        before = len(sweeps(standby))
        time.sleep(5)
        sent = len(sweeps(standby)) - before
        assert 3 <= sent <= 7, sent
        assert took < 5, took
        standby.check_alive()
        standby.check_log()
        leader.check_log()
    finally:
        first.stop()
        second.stop()
