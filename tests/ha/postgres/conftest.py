"""The failover drills' own PostgreSQL: a primary and a streaming replica
(``benchmarks.replication``) started for each test, in a directory of its
own on loopback ports, and stopped after it. The suite's embedded server and
pytest-django's test database are left alone: a drill kills its primary.

The processes a drill starts (uvicorn, Celery) use the test settings, the
test run's Redis and the live tests' short timers, with DATABASE_URL naming
both servers (``target_session_attrs=read-write``) and commits that wait
for the synchronous standby (``synchronous_commit=on``, which the test
settings would otherwise turn off).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from benchmarks.replication import ReplicatedPostgres
from config.celery import app as celery_app
from tests.live.conftest import start
from tests.live.support import (
    BOT_MOVE_SECONDS,
    DISCONNECT_GRACE_SECONDS,
    SOCKET_SILENCE_SECONDS,
    SWEEP_EVERY_SECONDS,
    SWEEP_MARGIN_SECONDS,
    TOURNAMENT_TICK_SECONDS,
)
from tests.processes import Process

BASE_DIR = Path(settings.BASE_DIR)
DATABASE = "pulka_ha"
# What each connection may wait for one host before it tries the next.
CONNECT_TIMEOUT = 2


@pytest.fixture
def log_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("ha-logs")


def drill_env(database_url: str) -> dict:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "PULKA_ANY_TURN_SECONDS": "1",
        "PULKA_BOT_MOVE_SECONDS": str(BOT_MOVE_SECONDS),
        "PULKA_DISCONNECT_GRACE_SECONDS": str(DISCONNECT_GRACE_SECONDS),
        "PULKA_SOCKET_SILENCE_SECONDS": str(SOCKET_SILENCE_SECONDS),
        "PULKA_SWEEP_EVERY_SECONDS": str(SWEEP_EVERY_SECONDS),
        "PULKA_SWEEP_MARGIN_SECONDS": str(SWEEP_MARGIN_SECONDS),
        "PULKA_TOURNAMENT_TICK_SECONDS": str(TOURNAMENT_TICK_SECONDS),
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(BASE_DIR),
    }
    env.pop("DATABASE_DIRECT_URL", None)
    env.pop("DATABASE_REPLICA_URL", None)
    return env


class Drill:
    """A replicated cluster with the drill's database migrated on it."""

    def __init__(self, cluster: ReplicatedPostgres, log_dir: Path):
        self.cluster = cluster
        self.log_dir = log_dir
        self.url = cluster.url(
            DATABASE,
            connect_timeout=str(CONNECT_TIMEOUT),
            options="-c synchronous_commit=on",
        )
        self.env = drill_env(self.url)
        self.processes: list[Process] = []

    def manage(self, *args: str, module: str = "manage.py") -> str:
        command = [sys.executable, *(["-m"] if module != "manage.py" else [])]
        command += [module, *args]
        done = subprocess.run(
            command,
            cwd=BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        return done.stdout

    def seed(self) -> dict:
        """A new two-player game: its id (``game``), its players' session
        keys (``sessions``) and names (``names``)."""
        return json.loads(self.manage(module="tests.ha.postgres.seed").splitlines()[-1])

    def start(self, name: str, command: list[str], env: dict | None = None) -> Process:
        process = start(name, command, {**self.env, **(env or {})}, self.log_dir)
        self.processes.append(process)
        return process

    def worker(self) -> Process:
        celery_app.control.purge()
        return self.start(
            "worker",
            [
                sys.executable, "-m", "celery", "-A", "config", "worker",
                "--pool", "solo", "--loglevel", "INFO",
                "--queues", settings.CELERY_TASK_DEFAULT_QUEUE,
                "--hostname", f"pulka-ha-{uuid.uuid4().hex[:8]}@%h",
                "--without-mingle", "--without-gossip", "--without-heartbeat",
            ],
        )  # fmt: skip

    def beat(self) -> Process:
        return self.start(
            "beat",
            [
                sys.executable, "-m", "celery", "-A", "config", "beat",
                "--loglevel", "INFO",
                "--scheduler", "config.beat:OneBeatScheduler",
                "--max-interval", "1",
            ],
        )  # fmt: skip

    def stop(self) -> None:
        for process in self.processes:
            process.stop()
        celery_app.control.purge()


@pytest.fixture
def drill(log_dir):
    """``drill(synchronous=True)``: a primary and a replica, the drill's
    database created and migrated on the primary; a ``Drill``."""
    made: list[tuple[ReplicatedPostgres, Drill]] = []

    def make(synchronous: bool = True) -> Drill:
        started = time.monotonic()
        cluster = ReplicatedPostgres(synchronous=synchronous).__enter__()
        drill = Drill(cluster, log_dir)
        made.append((cluster, drill))
        cluster.create_database(DATABASE)
        drill.manage("migrate", "--noinput")
        print(f"cluster up and migrated in {time.monotonic() - started:.1f} s")
        return drill

    yield make
    for cluster, drill in made:
        drill.stop()
        cluster.__exit__(None, None, None)
