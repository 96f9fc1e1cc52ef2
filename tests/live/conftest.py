"""Real processes for the live tests: two uvicorn servers, a Celery worker,
and Celery beat where a test asks for it.

They share pytest-django's test database and Redis with the test process:
the embedded servers, or those DATABASE_URL and REDIS_URL name.
"""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from config.limits import uvicorn_limits
from config.tasks import ping
from tests.processes import Process, database_url, free_port, wait_for_http

from .support import (
    BOT_MOVE_SECONDS,
    DISCONNECT_GRACE_SECONDS,
    SOCKET_SILENCE_SECONDS,
    SWEEP_EVERY_SECONDS,
    SWEEP_MARGIN_SECONDS,
    TOURNAMENT_TICK_SECONDS,
    TURN_SECONDS_ANY,
    Person,
)

BASE_DIR = Path(settings.BASE_DIR)
LIVE_DIR = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def short_timers(settings):
    """The test process creates tables and takes seats itself (deadlines are
    set there too), so it uses the same timers as the servers."""
    settings.PULKA_ANY_TURN_SECONDS = TURN_SECONDS_ANY
    settings.PULKA_BOT_MOVE_SECONDS = BOT_MOVE_SECONDS
    settings.PULKA_DISCONNECT_GRACE_SECONDS = DISCONNECT_GRACE_SECONDS
    settings.PULKA_SWEEP_MARGIN_SECONDS = SWEEP_MARGIN_SECONDS


@pytest.fixture(scope="session")
def live_env(django_db_setup) -> dict:
    """The environment of every process started here: the test database that
    pytest-django created (its NAME is test_...), the same Redis, the test
    settings and short timers. Depending on django_db_setup also means the
    processes are stopped before the test database is dropped."""
    return {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "PULKA_ANY_TURN_SECONDS": "1" if TURN_SECONDS_ANY else "0",
        "PULKA_BOT_MOVE_SECONDS": str(BOT_MOVE_SECONDS),
        "PULKA_DISCONNECT_GRACE_SECONDS": str(DISCONNECT_GRACE_SECONDS),
        "PULKA_SOCKET_SILENCE_SECONDS": str(SOCKET_SILENCE_SECONDS),
        "PULKA_SWEEP_EVERY_SECONDS": str(SWEEP_EVERY_SECONDS),
        "PULKA_SWEEP_MARGIN_SECONDS": str(SWEEP_MARGIN_SECONDS),
        "PULKA_TOURNAMENT_TICK_SECONDS": str(TOURNAMENT_TICK_SECONDS),
        "PYTHONUNBUFFERED": "1",
    }


@pytest.fixture(scope="session")
def log_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("live-logs")


def start(name: str, cmd: list[str], env: dict, log_dir: Path) -> Process:
    return Process(name, cmd, env, log_dir, cwd=BASE_DIR)


def start_server(name: str, live_env: dict, log_dir: Path, port: int | None = None):
    """A uvicorn process serving the project; (process, base URL)."""
    port = port or free_port()
    cmd = [
        sys.executable, "-m", "uvicorn", "config.asgi:application",
        "--host", "127.0.0.1", "--port", str(port),
        "--lifespan", "on", "--log-level", "info",
        *uvicorn_limits(),
    ]  # fmt: skip
    return start(name, cmd, live_env, log_dir), f"http://127.0.0.1:{port}"


@pytest.fixture
def own_servers(live_env, log_dir):
    """Start servers of this test's own, to stop or kill: ``own_servers(name,
    port=None, env=None)`` gives (process, base URL), answering on /health/,
    with ``env`` added to its environment; all are stopped when the test
    ends."""
    started = []

    def start_one(name: str, port: int | None = None, env: dict | None = None):
        process, url = start_server(name, {**live_env, **(env or {})}, log_dir, port)
        started.append(process)
        wait_for_http(process, f"{url}/health/")
        return process, url

    yield start_one
    for process in started:
        process.stop()


@pytest.fixture(scope="package")
def servers(live_env, log_dir):
    """Two uvicorn processes on free ports: base URLs like http://127.0.0.1:P.

    Like the worker, they live as long as this package's tests, no longer."""
    started = []
    try:
        for number in (1, 2):
            started.append(start_server(f"uvicorn-{number}", live_env, log_dir))
        for process, url in started:
            wait_for_http(process, f"{url}/health/")
        yield [url for _, url in started]
        for process, _ in started:
            process.check_alive()
    finally:
        for process, _ in started:
            process.stop()


@pytest.fixture(scope="package")
def worker(live_env, log_dir):
    """A Celery worker on the test queue. The queue is purged first: timers
    set by earlier tests (whose games are gone) would only hold it up.

    It is stopped when this package's tests are done: left running, it would
    take the timers of the tests that follow and move their games in the
    test database while they flush it."""
    celery_app.control.purge()
    cmd = [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--pool", "solo", "--loglevel", "INFO",
        "--queues", settings.CELERY_TASK_DEFAULT_QUEUE,
        "--hostname", f"pulka-live-{uuid.uuid4().hex[:8]}@%h",
        "--without-mingle", "--without-gossip", "--without-heartbeat",
    ]  # fmt: skip
    process = start("worker", cmd, live_env, log_dir)
    try:
        try:
            assert ping.apply_async().get(timeout=60) == "pong"
        except Exception as error:
            process.check_alive()
            log = process.log_tail()
            raise RuntimeError(f"the worker does not answer:\n{log}") from error
        yield process
        process.check_alive()
    finally:
        process.stop()
        # What it held back unacknowledged (timers of finished tests) went
        # back to the queue on shutdown; later tests should not meet it.
        celery_app.control.purge()


@pytest.fixture
def beat(live_env, log_dir, worker):
    """Celery beat with the database scheduler, as deployed; stopped at the
    end of the test, before the test database is flushed."""
    cmd = [
        sys.executable, "-m", "celery", "-A", "config", "beat",
        "--loglevel", "INFO",
        "--scheduler", "config.beat:OneBeatScheduler",
        "--max-interval", "1",
    ]  # fmt: skip
    process = start("beat", cmd, live_env, log_dir)
    try:
        yield process
        process.check_alive()
    finally:
        process.stop()


@pytest.fixture
def first_dealer(monkeypatch):
    """first_dealer(n): games started from now on have seat n deal first
    (in a 4-player game, seat n + 1 is then the first to bid)."""

    def choose(seat: int) -> None:
        monkeypatch.setattr(
            "games.services.tables.draw_first_dealer", lambda rules, rng=None: seat
        )

    return choose


@pytest.fixture
def people(transactional_db):
    """people(n): n signed-in users."""

    def make(count: int) -> list[Person]:
        return [Person(f"live-{uuid.uuid4().hex[:10]}") for _ in range(count)]

    return make
