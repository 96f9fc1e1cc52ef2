"""The servers a benchmark starts for itself, and only those.

``PrivateServices`` starts the embedded PostgreSQL and Redis (the ones
``make run`` starts, config/embedded.py) in a fresh directory of their own
under /tmp, reached on Unix sockets there: no TCP port, and nothing shared
with the checkout's own servers, a test run or the machine's. They are
stopped and their directory removed when the block ends, so a benchmark
may drop databases and flush Redis freely: nobody else uses them.

``start_uvicorn`` starts one uvicorn process on 127.0.0.1 at a given port
(``ports`` hands out the ones a ``--port`` option asks for, or free ones),
``wait_for_health`` waits for its /health/ and ``stop_server`` stops it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

BASE_DIR = Path(__file__).resolve().parent.parent
# The scripts that use this module run as ``python benchmarks/x.py`` and
# import the project's modules (config.embedded, config.limits) next.
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))
STOP_TIMEOUT = 10
START_TIMEOUT = 120

# Run in a process of its own, with PULKA_VAR_DIR naming the private
# directory: it holds ``EmbeddedServices`` open there until its stdin closes
# (this process ending closes it too, so the servers never outlive the
# benchmark).
HOLDER = textwrap.dedent(
    """
    import sys

    from config import embedded

    with embedded.EmbeddedServices(ENVIRON) as services:
        print("up", ",".join(services.started), flush=True)
        sys.stdin.read()
    """
)


class PrivateServices:
    """PostgreSQL and Redis of this benchmark's own, for a ``with`` block;
    Redis alone with ``postgres=False`` (its PostgreSQL is elsewhere:
    ``replication.ReplicatedPostgres``)."""

    def __init__(self, postgres: bool = True):
        self.postgres = postgres
        self.var: Path | None = None
        self._holder: subprocess.Popen | None = None

    def __enter__(self) -> PrivateServices:
        # Short: a Unix socket's path may not exceed 107 bytes.
        self.var = Path(tempfile.mkdtemp(prefix="pb", dir="/tmp"))
        env = {
            **os.environ,
            "PULKA_VAR_DIR": str(self.var),
            "PYTHONPATH": str(BASE_DIR),
        }
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        # EmbeddedServices starts what its environment does not name.
        environ = {} if self.postgres else {"DATABASE_URL": "elsewhere"}
        self._holder = subprocess.Popen(
            [sys.executable, "-c", HOLDER.replace("ENVIRON", repr(environ))],
            cwd=BASE_DIR,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        line = self._holder.stdout.readline().split()
        if line[:1] != ["up"]:
            self.__exit__()
            sys.exit(f"the private PostgreSQL and Redis did not start ({line})")
        return self

    def __exit__(self, *exc_info) -> None:
        if self._holder is not None:
            with contextlib.suppress(OSError):
                self._holder.stdin.close()
            try:
                self._holder.wait(timeout=START_TIMEOUT)
            except subprocess.TimeoutExpired:
                self._holder.kill()
                self._holder.wait()
            self._holder = None
        if self.var is not None:
            shutil.rmtree(self.var, ignore_errors=True)

    def database_url(self, name: str) -> str:
        host = quote(str(self.var / "postgres"))
        return f"postgres://postgres@/{name}?host={host}"

    def redis_url(self, db: int = 0) -> str:
        return f"unix://{self.var / 'redis' / 'redis.sock'}?db={db}"

    def create_database(self, name: str) -> str:
        """A new, empty database ``name`` on this private server; its URL."""
        import psycopg

        with psycopg.connect(self.database_url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.database_url(name)

    def restart_postgres(self, **settings: str) -> None:
        """Set PostgreSQL settings that take effect at a restart (``ALTER
        SYSTEM``, on this private server only) and restart it; its earlier
        options (the socket directory) are kept by ``pg_ctl restart``."""
        import psycopg
        from pgserver._commands import pg_ctl
        from psycopg import sql

        with psycopg.connect(self.database_url("postgres"), autocommit=True) as conn:
            for name, value in settings.items():
                conn.execute(
                    sql.SQL("ALTER SYSTEM SET {} = {}").format(
                        sql.Identifier(name), sql.Literal(value)
                    )
                )
        # pgserver runs the server as its own system user when run as root.
        user = "pgserver" if os.geteuid() == 0 else None
        pg_ctl(
            ["-w", "-m", "fast", "restart"],
            pgdata=self.var / "postgres",
            user=user,
            timeout=60,
        )


def ports(first: int | None, count: int) -> list[int]:
    """``count`` ports from ``first`` on (``--port``), or free ones."""
    if first:
        return [first + n for n in range(count)]
    return [free_port() for _ in range(count)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_uvicorn(
    app: list[str], port: int, env: dict, log_path: Path, app_dir: Path | None = None
) -> subprocess.Popen:
    """One uvicorn process serving ``app`` (its arguments: the application
    and ``--factory`` if it is one) as the site runs it, WebSocket limits
    included."""
    from config.child_processes import parent_death_signal
    from config.limits import uvicorn_limits

    cmd = [
        sys.executable, "-m", "uvicorn", *app,
        *(["--app-dir", str(app_dir)] if app_dir else []),
        "--host", "127.0.0.1", "--port", str(port),
        "--lifespan", "on", "--no-access-log", "--log-level", "warning",
        *uvicorn_limits(),
    ]  # fmt: skip
    with log_path.open("w") as log:
        return subprocess.Popen(
            cmd,
            cwd=BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=parent_death_signal(),
        )


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def wait_for_health(proc, url: str, log_path: Path, timeout: float = 60) -> None:
    limit = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            sys.exit(f"uvicorn exited:\n{log_path.read_text()[-3000:]}")
        with contextlib.suppress(OSError):
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        if time.monotonic() > limit:
            sys.exit(f"uvicorn did not answer {url}:\n{log_path.read_text()[-3000:]}")
        time.sleep(0.25)
