"""The embedded servers' life: the first user starts them, later users join,
the last one to leave stops them, and a user that dies counts for nothing.

Each user here is a process of its own running ``EmbeddedServices`` on a
scratch ``var/`` (not the one this test session runs on), so the servers it
starts and stops are its own.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.processes import BASE_DIR

USER = textwrap.dedent(
    """
    import sys

    from config import embedded

    with embedded.EmbeddedServices({}) as services:
        print("started", ",".join(services.started) or "-", flush=True)
        sys.stdin.readline()  # until told to leave
    print("left", flush=True)
    """
)


class User:
    def __init__(self, var: Path):
        env = {**os.environ, "PYTHONPATH": str(BASE_DIR), "PULKA_VAR_DIR": str(var)}
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", USER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        line = self.proc.stdout.readline().split()
        assert line[:1] == ["started"], line
        self.started = [] if line[1] == "-" else line[1].split(",")

    def leave(self) -> None:
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "left"
        assert self.proc.wait(timeout=60) == 0

    def die(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)


def postgres_up(var: Path) -> bool:
    try:
        pid = int((var / "postgres" / "postmaster.pid").read_text().split()[0])
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return True


def redis_up(var: Path) -> bool:
    import redis

    try:
        return redis.Redis(unix_socket_path=str(var / "redis" / "redis.sock")).ping()
    except (redis.ConnectionError, OSError):
        return False


def wait_down(var: Path) -> bool:
    limit = time.monotonic() + 30
    while postgres_up(var) or redis_up(var):
        if time.monotonic() > limit:
            return False
        time.sleep(0.1)
    return True


@pytest.mark.servers
@pytest.mark.timeout(180)
def test_the_last_user_stops_the_servers_and_a_dead_one_counts_for_nothing(
    tmp_path,
):
    var = tmp_path / "var"
    first = User(var)
    assert first.started == ["postgres", "redis"]
    assert postgres_up(var) and redis_up(var)

    second = User(var)
    assert second.started == []  # joined what was running
    first.leave()
    assert postgres_up(var) and redis_up(var), "stopped under a user"

    second.die()  # no clean exit: its lock goes with it
    assert postgres_up(var) and redis_up(var)
    third = User(var)
    assert third.started == []
    third.leave()
    assert wait_down(var), "the last user left the servers running"

    # And they start again on the data kept.
    again = User(var)
    assert again.started == ["postgres", "redis"]
    again.leave()
    assert wait_down(var)


def test_a_set_variable_leaves_that_server_alone():
    from config.embedded import EmbeddedServices

    services = EmbeddedServices({"DATABASE_URL": "postgres://x/y"})
    assert services.used == ["redis"]
    assert EmbeddedServices({"DATABASE_URL": "a", "REDIS_URL": "b"}).used == []


@pytest.mark.servers
@pytest.mark.timeout(180)
@pytest.mark.parametrize("command", [[], ["sleep", "600"]], ids=["alone", "command"])
def test_sigterm_stops_the_servers_it_started(tmp_path, command):
    """`python -m config.embedded` (what `make services` runs) stopped as a
    service manager stops it, with SIGTERM, stops its servers too: alone,
    and while it runs a command, which is stopped with it."""
    var = tmp_path / "var"
    env = {**os.environ, "PYTHONPATH": str(BASE_DIR), "PULKA_VAR_DIR": str(var)}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "config.embedded", *command],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=BASE_DIR,
    )
    try:
        assert "up: postgres, redis" in proc.stdout.readline()
        if not command:
            assert "stops them" in proc.stdout.readline()
        assert postgres_up(var) and redis_up(var)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 128 + signal.SIGTERM
        assert wait_down(var), "SIGTERM left the embedded servers running"
    finally:
        if proc.poll() is None:
            proc.kill()
