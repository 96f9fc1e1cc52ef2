"""A PostgreSQL primary and a streaming replica of their own, for the
failover drill (tests/ha) and the synchronous replication benchmark
(benchmarks/live_tables.py ``--replica``).

Both run from the embedded server's binaries (the ``pgserver`` wheel, as
config/embedded.py), in a fresh directory under /tmp, on loopback TCP ports
(a multi-host connection string names hosts and ports) and on Unix sockets
in their data directories. The primary has ``wal_level = replica``; the
replica is a ``pg_basebackup -R`` of it, streaming, with its own
``synchronous_standby_names`` empty (it is the primary after a promotion,
with no standby of its own yet). With ``synchronous=True`` the primary
names the replica in ``synchronous_standby_names``: a commit returns once
the replica has flushed it too (``synchronous_commit = on``).

``kill_primary`` kills every process of the primary with SIGKILL (its
machine gone), ``promote`` makes the replica the primary (``pg_ctl
promote``), and ``url`` gives the multi-host DATABASE_URL that finds
whichever of the two takes writes (``target_session_attrs=read-write``).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import textwrap
import time
from pathlib import Path

BIN = None  # the wheel's bin directory, found on first use
START_TIMEOUT = 120
# The replica's name, as the primary's synchronous_standby_names says it.
REPLICA_NAME = "replica1"
SUPERUSER = "postgres"


def _bin() -> Path:
    global BIN
    if BIN is None:
        import warnings

        # platformdirs warns when XDG_RUNTIME_DIR is unset (as embedded.py).
        warnings.filterwarnings("ignore", module="platformdirs")
        from pgserver._commands import POSTGRES_BIN_PATH

        BIN = POSTGRES_BIN_PATH
    return BIN


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One PostgreSQL server: its data directory and its port."""

    def __init__(self, name: str, data: Path, port: int):
        self.name = name
        self.data = data
        self.port = port

    @property
    def log(self) -> Path:
        return self.data.parent / f"{self.name}.log"

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def conninfo(self, database: str = "postgres") -> str:
        return (
            f"host=127.0.0.1 port={self.port} user={SUPERUSER} dbname={database}"
            " connect_timeout=5"
        )


class ReplicatedPostgres:
    """A primary and its streaming replica, for a ``with`` block; both are
    stopped and their directory removed when it ends."""

    def __init__(self, *, synchronous: bool = False, max_connections: int = 200):
        self.synchronous = synchronous
        self.max_connections = max_connections
        self.root: Path | None = None
        self.primary: Server | None = None
        self.replica: Server | None = None
        # Run as root, PostgreSQL runs as pgserver's own user (as pgserver
        # does for the embedded server: it refuses to run as root).
        self.user = "pgserver" if os.geteuid() == 0 else None

    # The life of the pair

    def __enter__(self) -> ReplicatedPostgres:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def start(self) -> None:
        # Short: the Unix sockets live in the data directories.
        self.root = Path(tempfile.mkdtemp(prefix="pgha", dir="/tmp"))
        self._own(self.root)
        self.primary = Server("primary", self.root / "p", _free_port())
        self.replica = Server("replica", self.root / "r", _free_port())
        self._run(
            "initdb", "-D", str(self.primary.data), "--auth=trust",
            "-U", SUPERUSER, "--encoding=utf8", "--no-sync",
        )  # fmt: skip
        self._configure(
            self.primary,
            wal_level="replica",
            max_wal_senders="5",
            wal_keep_size="256MB",
            synchronous_standby_names=f"'{REPLICA_NAME}'" if self.synchronous else "''",
        )
        self._pg_ctl(self.primary, "start")
        self._run(
            "pg_basebackup", "-D", str(self.replica.data), "-R", "-X", "stream",
            "-d", self.primary.conninfo() + f" application_name={REPLICA_NAME}",
        )  # fmt: skip
        self._configure(
            self.replica,
            hot_standby="on",
            synchronous_standby_names="''",
            primary_conninfo=(
                f"'host=127.0.0.1 port={self.primary.port} user={SUPERUSER}"
                f" application_name={REPLICA_NAME}'"
            ),
        )
        self._pg_ctl(self.replica, "start")
        self.wait_streaming()

    def stop(self) -> None:
        for server in (self.replica, self.primary):
            if server is None:
                continue
            pid = server.postmaster_pid()
            if pid is not None and _alive(pid):
                with contextlib.suppress(subprocess.SubprocessError, OSError):
                    self._pg_ctl(server, "stop", "-m", "immediate")
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def wait_streaming(self, timeout: float = START_TIMEOUT) -> None:
        """Until the primary sees the replica streaming (and, synchronous,
        as its synchronous standby)."""
        import psycopg

        wanted = "sync" if self.synchronous else "async"
        deadline = time.monotonic() + timeout
        while True:
            with psycopg.connect(self.primary.conninfo(), autocommit=True) as conn:
                rows = conn.execute(
                    "SELECT state, sync_state FROM pg_stat_replication"
                    " WHERE application_name = %s",
                    [REPLICA_NAME],
                ).fetchall()
            if ("streaming", wanted) in rows:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the replica is not streaming: {rows}")
            time.sleep(0.1)

    # The drill

    def url(self, database: str, **options: str) -> str:
        """The DATABASE_URL naming both servers, primary first: libpq (and
        psycopg) tries each in turn and keeps the one that takes writes."""
        from urllib.parse import quote, urlencode

        query = urlencode(
            {"target_session_attrs": "read-write", **options}, quote_via=quote
        )
        hosts = ",".join(
            f"127.0.0.1:{server.port}" for server in (self.primary, self.replica)
        )
        return f"postgres://{SUPERUSER}@{hosts}/{database}?{query}"

    def server_url(self, server: Server, database: str) -> str:
        return f"postgres://{SUPERUSER}@127.0.0.1:{server.port}/{database}"

    def create_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.primary.conninfo(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

    def kill_primary(self) -> None:
        """SIGKILL to every process of the primary at once (the postmaster
        and its backends): as if its machine had gone."""
        import psutil

        pid = self.primary.postmaster_pid()
        assert pid is not None, "the primary is not running"
        postmaster = psutil.Process(pid)
        processes = [postmaster, *postmaster.children(recursive=True)]
        for process in processes:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.send_signal(signal.SIGKILL)
        psutil.wait_procs(processes, timeout=10)

    def promote(self) -> None:
        """The replica takes writes (``pg_ctl promote -w``: returns once it
        does)."""
        self._pg_ctl(self.replica, "promote")

    # Helpers

    def _configure(self, server: Server, **settings: str) -> None:
        lines = [
            f"port = {server.port}",
            "listen_addresses = '127.0.0.1'",
            f"unix_socket_directories = '{server.data}'",
            f"max_connections = {self.max_connections}",
            "fsync = on",
            *(f"{name} = {value}" for name, value in settings.items()),
        ]
        with open(server.data / "postgresql.auto.conf", "a") as conf:
            conf.write("\n".join(lines) + "\n")

    def _pg_ctl(self, server: Server, action: str, *args: str) -> None:
        self._run(
            "pg_ctl", "-D", str(server.data), "-l", str(server.log), "-w",
            "-t", str(START_TIMEOUT), action, *args,
        )  # fmt: skip

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run(
            [str(_bin() / program), *args],
            user=self.user,
            cwd=self.root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=START_TIMEOUT + 30,
        )
        if done.returncode:
            raise RuntimeError(f"{program} {' '.join(args)} failed:\n{done.stdout}")

    def _own(self, path: Path) -> None:
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(path, entry.pw_uid, entry.pw_gid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


PGBOUNCER = "/usr/sbin/pgbouncer"


class PgBouncer:
    """PgBouncer (Debian's package) in transaction mode in front of one
    server, for a ``with`` block: clients connect to 127.0.0.1:``port``
    and name the server's database; the admin console is the database
    ``pgbouncer``.

    ``ignore_startup_parameters`` takes ``options`` (the test settings'
    ``-c synchronous_commit=off``: PgBouncer 1.18 refuses an unknown
    startup parameter otherwise) and is otherwise as deployed
    (docs/deployment.md, "PostgreSQL")."""

    def __init__(self, server: Server, directory: Path, pool_size: int = 20):
        self.server = server
        self.directory = directory
        self.port = _free_port()
        self.pool_size = pool_size
        self.process: subprocess.Popen | None = None
        self.user = "pgserver" if os.geteuid() == 0 else None

    @property
    def log(self) -> Path:
        return self.directory / "pgbouncer.log"

    def url(self, database: str, **options: str) -> str:
        from urllib.parse import quote, urlencode

        query = urlencode(options, quote_via=quote)
        return f"postgres://{SUPERUSER}@127.0.0.1:{self.port}/{database}" + (
            f"?{query}" if query else ""
        )

    def __enter__(self) -> PgBouncer:
        ini = self.directory / "pgbouncer.ini"
        users = self.directory / "userlist.txt"
        users.write_text(f'"{SUPERUSER}" ""\n')
        ini.write_text(
            textwrap.dedent(
                f"""\
                [databases]
                * = host=127.0.0.1 port={self.server.port}

                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = {self.port}
                unix_socket_dir =
                auth_type = trust
                auth_file = {users}
                admin_users = {SUPERUSER}
                pool_mode = transaction
                default_pool_size = {self.pool_size}
                max_client_conn = 1000
                ignore_startup_parameters = extra_float_digits, options
                logfile = {self.log}
                """
            )
        )
        for path in (ini, users):
            if self.user is not None:
                entry = pwd.getpwnam(self.user)
                os.chown(path, entry.pw_uid, entry.pw_gid)
        self.process = subprocess.Popen(
            [PGBOUNCER, str(ini)],
            user=self.user,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.wait_ready()
        return self

    def wait_ready(self, timeout: float = 30) -> None:
        import psycopg

        deadline = time.monotonic() + timeout
        while True:
            if self.process is not None and self.process.poll() is not None:
                log = self.log.read_text() if self.log.exists() else ""
                raise RuntimeError(f"pgbouncer exited:\n{log}")
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def transactions(self, database: str) -> int:
        """Transactions PgBouncer has passed to ``database`` so far (its
        admin console's SHOW STATS)."""
        import psycopg

        # The admin console speaks the simple query protocol only.
        with psycopg.connect(
            self.url("pgbouncer"), autocommit=True, cursor_factory=psycopg.ClientCursor
        ) as conn:
            cursor = conn.cursor()
            cursor.execute("SHOW STATS")
            names = [column.name for column in cursor.description or []]
            for row in cursor.fetchall():
                stats = dict(zip(names, row, strict=True))
                if stats["database"] == database:
                    return int(stats["total_xact_count"])
        return 0

    def __exit__(self, *exc_info) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
