"""A real server, a real Celery worker and Debian's Chromium for browser tests.

The server (uvicorn) and the worker run as subprocesses against pytest-django's
test database and the same Redis as the test process: the worker moves the
bots and broadcasts through the channel layer to the server's WebSockets.
Chromium is the system's, found at /usr/bin/chromium or at PULKA_CHROMIUM;
Playwright never downloads a browser.

Chromium is the one thing the machine must provide: without it the browser
tests are skipped with that reason; with PULKA_REQUIRE_BROWSER_TEST=1 (as in
CI) they fail instead.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, connections

from config.limits import uvicorn_limits
from tests.processes import Process, database_url, free_port, wait_for_http

BASE_DIR = Path(settings.BASE_DIR)
BROWSER_DIR = Path(__file__).resolve().parent

CHROMIUM = os.environ.get("PULKA_CHROMIUM") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REQUIRED = os.environ.get("PULKA_REQUIRE_BROWSER_TEST", "") not in ("", "0")

# Short bot delays, so that a deal takes seconds.
BOT_MOVE_SECONDS = 0.2
# A disconnect grace a test can wait out (test_coming_back_in_browser.py),
# yet longer than any page reload of the other tests. Every server of a
# package shares the games (any of them may own one), so it is set for all.
DISCONNECT_GRACE_SECONDS = 20
START_TIMEOUT = 60


def missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return (
            f"no Chromium at {CHROMIUM}: install Debian's chromium package "
            "(apt-get install chromium) or set PULKA_CHROMIUM to a Chromium binary"
        )
    return None


def pytest_collection_modifyitems(config, items):
    reason = missing()
    if reason is None or REQUIRED:
        return
    skip = pytest.mark.skip(reason=f"browser test: {reason}")
    for item in items:
        if BROWSER_DIR in Path(str(item.path)).parents:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _browser_requirements():
    """Under PULKA_REQUIRE_BROWSER_TEST a missing requirement is a failure."""
    reason = missing()
    if reason is not None:
        pytest.fail(f"PULKA_REQUIRE_BROWSER_TEST is set, but {reason}")


@pytest.fixture
def read_db():
    """read_db(query): run ``query()`` (database reads) in a thread of its own
    and return its result.

    While Playwright's sync API is in use, an event loop runs in the test's
    thread, so Django refuses queries there as if they came from async code.
    The thread's connection is closed before returning: left open, it would
    keep pytest-django from dropping the test database.
    """

    def read(query):
        def run():
            try:
                return query()
            finally:
                connections.close_all()

        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(run).result()

    return read


def _wait_for_other_sessions_to_close(timeout: float = 10) -> None:
    """PostgreSQL ends a stopped process's sessions a moment after it exits;
    pytest-django can drop the test database only once they are gone."""
    deadline = time.monotonic() + timeout
    while True:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            (others,) = cursor.fetchone()
        if not others or time.monotonic() > deadline:
            return
        time.sleep(0.1)


@pytest.fixture(scope="package")
def process_env(django_db_setup, django_db_blocker) -> dict:
    """The environment of the server and the worker: the test database, the
    same Redis, the test settings and quick bots. Depending on
    django_db_setup means they are stopped before the database is dropped."""
    yield {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PULKA_BOT_MOVE_SECONDS": str(BOT_MOVE_SECONDS),
        "PULKA_DISCONNECT_GRACE_SECONDS": str(DISCONNECT_GRACE_SECONDS),
        "PULKA_ANY_TURN_SECONDS": "1",
        "PYTHONUNBUFFERED": "1",
    }
    # The server and the worker are stopped by now.
    with django_db_blocker.unblock():
        _wait_for_other_sessions_to_close()


@pytest.fixture(scope="package")
def log_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("browser-logs")


@pytest.fixture(scope="package")
def server(process_env, log_dir, worker):
    """uvicorn serving config.asgi:application on a free port: its base URL.

    One server and one worker serve the package's tests (each test's data
    is flushed after it; the games of one never meet another's). The server
    is stopped before the worker, whose queue is purged last: closing the
    browser's WebSockets still sets timers (a disconnected seat's grace).
    """
    port = free_port()
    cmd = [
        sys.executable, "-m", "uvicorn", "config.asgi:application",
        "--host", "127.0.0.1", "--port", str(port),
        "--lifespan", "on", "--log-level", "warning",
        *uvicorn_limits(),
    ]  # fmt: skip
    process = Process("uvicorn", cmd, process_env, log_dir)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(process, f"{url}/health/", START_TIMEOUT)
        yield url
        process.check_alive()
    finally:
        process.stop()
        print(f"\n--- uvicorn log ({process.log_path}) ---\n{process.log_tail()}")


@pytest.fixture(scope="package")
def worker(process_env, log_dir):
    """A Celery worker on the test queue, which is purged first: timers left
    by earlier tests (whose games are gone) would only hold it up."""
    from config.celery import app as celery_app
    from config.tasks import ping

    celery_app.control.purge()
    cmd = [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--pool", "solo", "--loglevel", "INFO",
        "--queues", settings.CELERY_TASK_DEFAULT_QUEUE,
        "--hostname", f"pulka-browser-{uuid.uuid4().hex[:8]}@%h",
        "--without-mingle", "--without-gossip", "--without-heartbeat",
    ]  # fmt: skip
    process = Process("worker", cmd, process_env, log_dir)
    try:
        try:
            assert ping.apply_async().get(timeout=START_TIMEOUT) == "pong"
        except Exception as error:
            process.check_alive()
            raise RuntimeError(
                f"the worker does not answer:\n{process.log_tail()}"
            ) from error
        yield process
        process.check_alive()
    finally:
        process.stop()
        # Timers the worker held back went back to the queue when it stopped;
        # later tests should not meet them.
        celery_app.control.purge()
        print(f"\n--- worker log ({process.log_path}) ---\n{process.log_tail()}")


@pytest.fixture
def browser():
    """Headless Chromium from the system, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(transactional_db, server, browser):
    """A fresh browser page on the server, with its JavaScript errors kept in
    ``page.js_errors``; the test's data is flushed when it ends."""
    context = browser.new_context(
        base_url=server, viewport={"width": 1280, "height": 900}, locale="en-US"
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
