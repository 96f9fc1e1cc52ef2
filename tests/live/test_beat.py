"""Two Celery beats, as a deployment that runs a standby would: one sends
the periodic tasks, the other stands by, and takes over within seconds
when the first is killed (config.beat)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import threading
import time
from itertools import pairwise

import pytest

from games import services
from games.models import Game
from tests.books import NOTHING_AMISS, books
from tests.live.conftest import start
from tests.live.support import TableClient
from tests.live.test_owners import event_rows

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


SENT = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) INFO celery.beat: "
    r"Scheduler: Sending due task (\S+) ",
    re.MULTILINE,
)
# The longest a standby takes to lead and send, beyond a period.
TAKEOVER_SECONDS = 5.0
# The drill's length (make test-ha): ten minutes, as the issue sets it.
DRILL_SECONDS = float(os.environ.get("PULKA_BEAT_DRILL_SECONDS", "600"))


def sends(*processes) -> dict[str, list[float]]:
    """Every periodic job's sends, by any of the beats: their times."""
    from datetime import datetime

    found: dict[str, list[float]] = {}
    for process in processes:
        for stamp, job in SENT.findall(process.log_path.read_text(errors="replace")):
            at = datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S,%f").timestamp()
            found.setdefault(job, []).append(at)
    return {job: sorted(times) for job, times in found.items()}


def play_paced(base_url: str, game_id: int, keys: list[str], pace: float, until: float):
    """Both seats play their first legal choice, each ``pace`` seconds after
    it becomes theirs, until ``until`` (time.monotonic) or the game's end;
    in a thread of its own. ``.join()`` gives {client id: (ack, monotonic
    time)}."""
    acked: dict[str, tuple[dict, float]] = {}

    async def seat(key: str) -> None:
        async with TableClient(base_url, game_id, key) as client:
            seen = 0
            while time.monotonic() < until and client.snapshot["status"] == "playing":
                if client.my_turn():
                    await asyncio.sleep(pace)
                    await client.act()
                try:
                    await client.receive(timeout=1)
                except TimeoutError:
                    pass
                for client_id in list(client.acks)[seen:]:
                    acked[client_id] = (client.acks[client_id], time.monotonic())
                seen = len(client.acks)

    async def both() -> None:
        await asyncio.gather(*(seat(key) for key in keys))

    class Players(threading.Thread):
        def run(self) -> None:
            asyncio.run(both())

        def join(self, timeout=None):
            super().join(timeout)
            assert not self.is_alive(), "the players did not stop"
            return acked

    players = Players(daemon=True)
    players.start()
    return players


@pytest.mark.ha
@pytest.mark.timeout(DRILL_SECONDS + 300)
def test_two_beats_for_the_drill_send_every_job_once_a_period(
    live_env, log_dir, worker, servers, people, settings
):
    """Two beats for the drill's length (ten minutes), the leader killed
    halfway: every periodic job of the schedule was sent by one beat at a
    time, never twice in one period (no two sends closer than half of it),
    and none missed more than the takeover's second or two. Two players
    play a game all along, a move every few seconds: it goes on through the
    kill, every acked move stored once, the books balanced and its record
    replaying."""
    alice, bob = people(2)
    table = services.table_create(user=alice.user, profile="japanese", turn_seconds=120)
    services.seat_take(table_id=table.pk, user=bob.user, number=1)
    game = Game.objects.get(table=table)
    first = start("drill-beat-1", BEAT, live_env, log_dir)
    second = start("drill-beat-2", BEAT, live_env, log_dir)
    beats = (first, second)
    try:
        wait_until(lambda: leads(first) or leads(second), 30, "no beat leads")
        began = time.time()
        # About 120 moves over the drill: a Japanese game lasts longer.
        players = play_paced(
            servers[0],
            game.pk,
            [alice.session_key, bob.session_key],
            pace=DRILL_SECONDS / 120,
            until=time.monotonic() + DRILL_SECONDS,
        )
        leader = first if leads(first) else second
        time.sleep(DRILL_SECONDS / 2)
        leader.proc.send_signal(signal.SIGKILL)
        leader.proc.wait(timeout=10)
        killed_at = time.monotonic()
        time.sleep(DRILL_SECONDS / 2)
        ended = time.time()
        acked = players.join(timeout=60)
        survivor = second if leader is first else first
        survivor.check_alive()
        for beat in beats:
            beat.check_log()
    finally:
        for beat in beats:
            beat.stop()

    # The game went on through the kill, and lost nothing: every acked move
    # stored once, after the version it was sent at (``v<version>``) and at
    # most at the one it was acked with (a deal's last card is acked with
    # the next deal's version).
    assert [at for _, at in acked.values() if at > killed_at], "none after the kill"
    stored: dict[str, list[int]] = {}
    for version, _, client, _ in event_rows(game.pk):
        if client:
            stored.setdefault(client, []).append(version)
    for client, (ack, _) in acked.items():
        (version,) = stored[client]
        assert int(client[1:]) < version <= ack["version"], (client, version, ack)
    assert books([game.pk]) == NOTHING_AMISS

    # The schedule as the beats have it: the site's, with this package's
    # short timers (``live_env``).
    periods = {
        name: float(entry["schedule"])
        for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
    }
    periods["sweep-lost-timers"] = float(live_env["PULKA_SWEEP_EVERY_SECONDS"])
    periods["tournaments-tick"] = float(live_env["PULKA_TOURNAMENT_TICK_SECONDS"])
    sent = sends(*beats)
    report = []
    for job, period in periods.items():
        times = [t for t in sent.get(job, []) if began <= t <= ended]
        gaps = [b - a for a, b in pairwise(times)]
        report.append(
            f"{job}: every {period:g} s, sent {len(times)} times, gaps "
            f"{min(gaps, default=0):.1f} to {max(gaps, default=0):.1f} s"
        )
        # Never twice in a period (a beat's tick lags a little behind the
        # period, so the sends drift later, never closer); a job of a period
        # longer than the drill is sent at most once plus once a period.
        assert all(gap >= period / 2 for gap in gaps), (job, gaps)
        assert len(times) <= (ended - began) / period + 1, (job, len(times))
        if period <= DRILL_SECONDS / 10:
            # A short job is sent all along, the takeover (a few seconds)
            # its longest wait.
            assert times and times[0] - began <= period + 1, (job, times[:1])
            assert max(gaps) <= period + TAKEOVER_SECONDS, (job, max(gaps))
    print("two beats for", f"{ended - began:.0f} s:", "; ".join(report))
