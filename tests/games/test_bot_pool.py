"""The bots' process pool ends with its server, however the server ends,
and only then; a bot process that dies is replaced."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest
from django.conf import settings

from games.live import bot_pool
from joker import legal_actions

from .test_bot_levels import a_state_in_play

# A server's part in it: the pool started, one task thought in it.
SERVER = """
import os, sys, time
import django
django.setup()
from games.live import bot_pool
print(bot_pool.pool().submit(os.getpid).result(), flush=True)
time.sleep(120)
"""


def session_processes(session: int) -> set[int]:
    """The processes running in a session: a server and what it started
    (the pool's fork server, its workers, the resource tracker)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getsid(int(entry)) == session:
                    found.add(int(entry))
            except OSError:  # gone meanwhile
                continue
    return found


@pytest.mark.slow
def test_the_bot_processes_end_with_a_server_killed_outright():
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER],
        cwd=settings.BASE_DIR,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"},
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        worker = int(server.stdout.readline())
        assert worker != server.pid
        session = os.getsid(server.pid)
        assert {server.pid, worker} <= session_processes(session)
        os.kill(server.pid, signal.SIGKILL)  # the server alone, not its group
        server.wait()
        limit = time.monotonic() + 10
        while session_processes(session) and time.monotonic() < limit:
            time.sleep(0.05)
        assert session_processes(session) == set()
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)


def wait_for_exit(pid: int, limit: float = 10.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)
    raise AssertionError(f"process {pid} still running")


@pytest.mark.django_db
def test_a_stop_signal_to_the_group_leaves_the_bots_to_their_server(settings):
    """SIGTERM or SIGINT sent to the server's whole process group (systemd,
    a Ctrl-C, a group kill) must not kill the bots under the moves they
    are thinking: they end with the server."""
    settings.PULKA_BOT_PROCESSES = 1
    bot_pool.stop()
    try:
        worker = bot_pool.pool().submit(os.getpid).result()
        os.kill(worker, signal.SIGTERM)
        os.kill(worker, signal.SIGINT)
        assert bot_pool.pool().submit(time.sleep, 0.2).result() is None
        assert bot_pool.pool().submit(os.getpid).result() == worker
    finally:
        bot_pool.stop()


@pytest.mark.django_db
def test_a_bot_process_that_dies_is_replaced_by_a_new_pool(settings):
    """A broken pool refuses every later move; the next move gets a new
    pool instead of failing, and every move after it too."""
    settings.PULKA_BOT_PROCESSES = 1
    settings.PULKA_PRACTICE_BOT_SECONDS = 0.02
    state = a_state_in_play("georgian-club")
    bot_pool.stop()
    try:
        worker = bot_pool.pool().submit(os.getpid).result()
        os.kill(worker, signal.SIGKILL)  # as the kernel's OOM killer would
        wait_for_exit(worker)
        for _ in range(2):
            thought = asyncio.run(bot_pool.think("practice", state, []))
            assert thought.action in legal_actions(state)
        assert bot_pool.pool().submit(os.getpid).result() != worker
    finally:
        bot_pool.stop()
