"""The platform as `make run` starts it: scripts/run_platform.py with its web
server, Celery worker and Celery beat, on the embedded PostgreSQL and Redis
(or those DATABASE_URL and REDIS_URL name).

A person plays a whole Japanese Joker match against a practice bot over a
WebSocket, letting some of their turns run out. Every move the worker makes,
the bot's and the timeouts, must reach the person's socket as an update
within two seconds of being made, with no resync on the way.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time

import psutil
import pytest
from django.db import connection

from games import services
from games.models import Game, GameEvent
from tests.live.support import Person, TableClient, wait_all_disconnected
from tests.processes import (
    BASE_DIR,
    Process,
    database_url,
    free_port,
    wait_for_http,
)

BOT_MOVE_SECONDS = 0.05
TURN_SECONDS = 2
# The person's turns numbered 2, 12, 22 ... are left to the timer: each
# costs TURN_SECONDS of waiting, and a few show the timer's moves arrive.
LET_RUN_OUT_EVERY = 10
ARRIVAL_LIMIT = 2.0


@pytest.fixture
def platform(transactional_db, tmp_path, settings):
    """run_platform.py on a free port (its base URL in ``url``). It shares the test
    database and Redis with the test process (which creates the table and
    so sets the first timer with the same settings)."""
    settings.PULKA_ANY_TURN_SECONDS = True
    settings.PULKA_BOT_MOVE_SECONDS = BOT_MOVE_SECONDS
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "PULKA_ANY_TURN_SECONDS": "1",
        "PULKA_BOT_MOVE_SECONDS": str(BOT_MOVE_SECONDS),
        "PYTHONUNBUFFERED": "1",
    }
    from config.celery import app as celery_app

    celery_app.control.purge()
    cmd = [
        sys.executable, "scripts/run_platform.py",
        "--host", "127.0.0.1", "--port", str(port), "--no-demo",
    ]  # fmt: skip
    process = Process("platform", cmd, env, tmp_path, cwd=BASE_DIR)
    process.url = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(process, f"{process.url}/health/", timeout=90)
        yield process
        process.check_alive()
    finally:
        process.stop()
        celery_app.control.purge()
        print(f"\n--- platform log ---\n{process.log_tail(80)}")


class TimedClient(TableClient):
    """A table client that notes when each version first reached it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.arrived: dict[int, float] = {}

    async def receive(self, timeout: float = 10) -> dict:
        message = await super().receive(timeout)
        now = time.time()
        # Updates, and the sync that tells the game's last step.
        ending = message["type"] == "sync" and message["status"] != "playing"
        if message["type"] == "update" or ending:
            for step in message.get("events") or []:
                self.arrived.setdefault(step["version"], now)
        return message


def died(platform: Process) -> list[str]:
    """The processes the runner saw die, in order."""
    log = platform.log_tail(1_000_000)
    return re.findall(r"\| (\w+) (?:exited with|was killed by)", log)


@pytest.mark.timeout(300)
def test_a_whole_match_against_a_bot_arrives_live(platform):
    person = Person("platform-player")
    table = services.table_create(
        user=person.user,
        profile="japanese",
        options={"target": 11},
        turn_seconds=TURN_SECONDS,
    )
    services.seat_add_bot(table_id=table.pk, user=person.user, number=1)
    game = Game.objects.get(table=table)

    async def play() -> TimedClient:
        async with TimedClient(platform.url, game.pk, person.session_key) as client:
            turns = 0
            while client.snapshot["status"] == "playing":
                if client.my_turn():
                    turns += 1
                    if turns % LET_RUN_OUT_EVERY != 2:
                        await client.act()
                        continue
                    client.acted_on = client.snapshot["version"]  # let it run out
                await client.receive(timeout=30)
                assert not client.errors, client.errors
            return client

    client = asyncio.run(play())
    wait_all_disconnected(game.pk)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    syncs = [message for message in client.messages if message["type"] == "sync"]
    # The one on connecting, and the one that ends the game: no resync.
    assert len(syncs) == 2, "the client was sent a resync"
    assert syncs[-1]["status"] == "finished"
    versions = sorted(client.arrived)
    assert versions == list(range(versions[0], game.version + 1)), "a gap"
    # The bot may move before the person's socket is open: such a move
    # comes in the first sync, not as an update.
    made_by_worker = GameEvent.objects.filter(
        game=game,
        cause__in=[GameEvent.Cause.BOT, GameEvent.Cause.TIMEOUT],
        version__gte=versions[0],
    )
    causes = {event.cause for event in made_by_worker}
    assert causes == {GameEvent.Cause.BOT, GameEvent.Cause.TIMEOUT}
    delays = [
        client.arrived[event.version] - event.created_at.timestamp()
        for event in made_by_worker
    ]
    print(f"\n{len(delays)} worker moves, slowest to arrive {max(delays):.3f} s")
    late = {
        event.version: round(
            client.arrived[event.version] - event.created_at.timestamp(), 3
        )
        for event in made_by_worker
        if client.arrived[event.version] - event.created_at.timestamp() > ARRIVAL_LIMIT
    }
    assert not late, f"updates later than {ARRIVAL_LIMIT} s (version: seconds): {late}"
    assert died(platform) == []


def child(platform: Process, *words: str) -> psutil.Process:
    """The runner's child whose command line holds ``words``."""
    for proc in psutil.Process(platform.proc.pid).children():
        if all(word in proc.cmdline() for word in words):
            return proc
    raise AssertionError(f"no child process {words}")


def wait_for_log(platform: Process, text: str, timeout: float = 30) -> None:
    limit = time.monotonic() + timeout
    while text not in platform.log_tail(1_000_000):
        if time.monotonic() > limit:
            raise AssertionError(f"the runner never said {text!r}")
        time.sleep(0.1)


@pytest.mark.timeout(300)
def test_a_process_that_dies_is_named_and_started_again(platform):
    from config.tasks import ping

    # Killed once it is up: a worker killed while it still forks its pool
    # leaves a child that fails to report itself to a parent that is gone
    # (billiard's BrokenPipeError), which is not what this test is about.
    wait_for_log(platform, " ready.", timeout=60)
    assert ping.apply_async().get(timeout=60) == "pong"
    child(platform, "worker").kill()
    wait_for_log(platform, "worker was killed by SIGKILL.")
    wait_for_log(platform, "Starting worker again.")
    assert ping.apply_async().get(timeout=60) == "pong"  # the new worker

    child(platform, "uvicorn").send_signal(signal.SIGTERM)
    wait_for_log(platform, "web was killed by SIGTERM.")
    wait_for_log(platform, "Starting web again.")
    wait_for_http(platform, f"{platform.url}/health/", timeout=60)
    assert died(platform) == ["worker", "web"]
    platform.check_alive()
