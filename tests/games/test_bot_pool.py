"""The bots' process pool ends with its server, however the server ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from django.conf import settings

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
