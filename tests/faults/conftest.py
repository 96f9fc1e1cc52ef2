"""The platform under fault: ``scripts/run_platform.py`` as the README starts
it (``make run``), on embedded PostgreSQL and Redis of its own.

Each fault kind gets a platform of its own, in a directory of its own
(``PULKA_VAR_DIR``), so that killing its servers leaves the test session's
alone. The test process reaches the platform's database through
``tests.faults.platform_db``, run in the platform's environment.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from tests.processes import BASE_DIR, Process, free_port, wait_for_http

# A turn lasts this long: longer than a fault and the restart after it take
# (the deadline moves on by the time the game was unowned, games.live.hall),
# short enough that one turn can be left to run out after each fault.
TURN_SECONDS = 8
STAKE = 10

# Settings the platform is started with: the defaults of `make run`
# (config.settings.dev) and short timers.
PLATFORM_SETTINGS = {
    "DJANGO_SETTINGS_MODULE": "config.settings.dev",
    "DEBUG": "0",
    "PULKA_ANY_TURN_SECONDS": "1",
    "PULKA_SWEEP_EVERY_SECONDS": "1",
    "PULKA_SWEEP_MARGIN_SECONDS": "1",
    # A caller waits 1 s for a database connection, not 3: a sweep started
    # in the 3 s that PostgreSQL is down then fails, and is tried again,
    # before the platform is stopped (test_faults checks the retry).
    "PULKA_DB_POOL_TIMEOUT": "1",
    "PYTHONUNBUFFERED": "1",
}
# What the test session sets that would point the platform elsewhere.
NOT_INHERITED = (
    "DATABASE_URL",
    "REDIS_URL",
    "PULKA_REDIS_CHANNELS_URL",
    "PULKA_REDIS_CACHE_URL",
    "PULKA_REDIS_LIVE_URL",
    "CELERY_BROKER_URL",
    "PYTEST_XDIST_WORKER",
    "PYTEST_XDIST_WORKER_COUNT",
    "PYTEST_CURRENT_TEST",
)


class Platform:
    """run_platform.py on a var directory of its own; started and stopped
    (SIGTERM, as Ctrl-C) with the same command each time."""

    def __init__(self, log_dir: Path):
        # Short: the Unix sockets live here (config.embedded.SOCKET_PATH_MAX).
        self.var_dir = Path(tempfile.mkdtemp(prefix="pf", dir="/tmp"))
        self.log_dir = log_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in NOT_INHERITED},
            **PLATFORM_SETTINGS,
            "PULKA_VAR_DIR": str(self.var_dir),
        }
        # The README's command (what `make run` runs), demo data left out.
        self.cmd = [
            sys.executable, "scripts/run_platform.py",
            "--host", "127.0.0.1", "--port", str(self.port), "--no-demo",
        ]  # fmt: skip
        self.process: Process | None = None
        self.starts = 0

    # Life

    def start(self, timeout: float = 120) -> None:
        self.spawn()
        self.wait_ready(timeout)

    def spawn(self) -> None:
        """Start the runner. Call it from a thread that lives as long as the
        platform (the main one): Linux ends the runner when the thread that
        started it exits (PR_SET_PDEATHSIG, tests.processes)."""
        self.starts += 1
        self.process = Process(
            f"platform-{self.starts}", self.cmd, self.env, self.log_dir, cwd=BASE_DIR
        )

    def wait_ready(self, timeout: float = 120) -> None:
        wait_for_http(self.process, f"{self.url}/health/", timeout=timeout)
        # The port was free while the platform was down: another test run's
        # server may have taken it and answered the health check (and our
        # web failed to bind). The players must meet this platform's own web.
        self.wait_for_own_web(timeout)
        # The worker and beat are up too: beat has sent a sweep and the
        # worker has run it (PULKA_SWEEP_EVERY_SECONDS).
        self.wait_for_log("Task games.tasks.sweep", "succeeded")

    def wait_for_own_web(self, timeout: float) -> None:
        """Wait until the runner's web process listens on the port."""
        limit = time.monotonic() + timeout
        while True:
            self.process.check_alive()
            try:
                listening = [
                    conn.laddr.port
                    for conn in self.child("web").net_connections(kind="tcp")
                    if conn.status == psutil.CONN_LISTEN
                ]
            except (AssertionError, psutil.Error):
                listening = []  # being started again
            if self.port in listening:
                return
            if time.monotonic() > limit:
                raise AssertionError(
                    f"port {self.port} answers, but not from this platform's web:"
                    f"\n{self.process.log_tail()}"
                )
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()

    def close(self) -> None:
        """Stop it and what it left behind, and remove its directory."""
        self.stop()
        for pid in (self.postmaster_pid(), self.redis_pid()):
            if pid and psutil.pid_exists(pid):
                try:
                    psutil.Process(pid).kill()
                except psutil.Error:
                    pass
        shutil.rmtree(self.var_dir, ignore_errors=True)

    def wait_for_log(self, *words: str, timeout: float = 60) -> None:
        """Wait for a line of the current run's log holding every word."""
        limit = time.monotonic() + timeout
        while True:
            lines = self.process.log_path.read_text(errors="replace").splitlines()
            if any(all(word in line for word in words) for line in lines):
                return
            self.process.check_alive()
            if time.monotonic() > limit:
                raise AssertionError(f"the platform never logged {words}")
            time.sleep(0.2)

    def log(self, lines: int = 120) -> str:
        return "\n\n".join(
            f"--- {path.name} ---\n"
            + "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
            for path in sorted(self.log_dir.glob("platform-*.log"))
        )

    # Its processes

    def child(self, name: str) -> psutil.Process:
        """The runner's web, worker or beat process (the Celery worker's
        main process, not its pool)."""
        words = {"web": ["uvicorn"], "worker": ["celery", "worker"]}.get(
            name, ["celery", "beat"]
        )
        for proc in psutil.Process(self.process.proc.pid).children():
            if all(word in proc.cmdline() for word in words):
                return proc
        raise AssertionError(f"the platform has no {name} process")

    def postmaster_pid(self) -> int | None:
        try:
            text = (self.var_dir / "postgres" / "postmaster.pid").read_text()
            return int(text.split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def redis_pid(self) -> int | None:
        try:
            return int((self.var_dir / "redis" / "redis.pid").read_text())
        except (OSError, ValueError):
            return None

    # Its database

    def db(self, *args) -> dict:
        """Run tests.faults.platform_db in the platform's environment."""
        result = subprocess.run(
            [sys.executable, "-m", "tests.faults.platform_db", *map(str, args)],
            cwd=BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if result.returncode:
            raise AssertionError(f"platform_db {args} failed:\n{result.stderr}")
        return json.loads(result.stdout.splitlines()[-1])

    def psql(self, sql: str, database: str = "pulka") -> None:
        """Run SQL as the superuser on the platform's PostgreSQL."""
        import psycopg

        with psycopg.connect(
            host=str(self.var_dir / "postgres"),
            user="postgres",
            dbname=database,
            autocommit=True,
        ) as conn:
            conn.execute(sql)
