#!/usr/bin/env python
"""Run the whole platform in one terminal: web server, Celery worker, Celery beat
and the deal reviews' worker.

First the embedded PostgreSQL and Redis are started (those that DATABASE_URL
and REDIS_URL do not name, see config/embedded.py), migrations are applied
and the demo data is created. Then the three processes run, each line of
their output prefixed with its name. A process that exits on its own is
named with its exit code or signal and started again (the others go on, and
the game state lives in the database, so no game is lost); one that keeps
dying is given up on, and then everything stops. Ctrl-C (or SIGTERM) stops
all of them and then the embedded servers. The children run in sessions of
their own and are stopped by this script alone; should it die, Linux sends
them SIGTERM.

    python scripts/run_platform.py [--host 127.0.0.1] [--port 8000] [--no-demo]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from config.child_processes import parent_death_signal  # noqa: E402
from config.embedded import EmbeddedServices  # noqa: E402
from config.limits import uvicorn_limits  # noqa: E402

STOP_TIMEOUT = 15  # seconds a process gets to exit before it is killed
# A process that dies this many times within RESTART_WINDOW seconds is not
# started again: something is wrong that a restart does not cure.
MAX_RESTARTS = 5
RESTART_WINDOW = 60


def commands(host: str, port: int) -> dict[str, list[str]]:
    python = sys.executable
    return {
        "web": [
            python, "-m", "uvicorn", "config.asgi:application",
            "--host", host, "--port", str(port), "--lifespan", "on",
            *uvicorn_limits(),
        ],
        "worker": [
            python, "-m", "celery", "-A", "config", "worker",
            "--loglevel", "INFO", "--concurrency", "2",
        ],
        "beat": [
            python, "-m", "celery", "-A", "config", "beat",
            "--loglevel", "INFO",
            "--scheduler", "config.beat:OneBeatScheduler",
        ],
        # Deal reviews: a worker of their own, at the lowest CPU priority.
        "reviews": [python, "-m", "config.review_worker"],
    }  # fmt: skip


# Beat connects without a pool: one connection of its own, kept. Its
# scheduler reads and saves the schedule at every tick; with a pool, each
# read while PostgreSQL is down waits the pool's timeout, and beat sends no
# task meanwhile (the sweep among them), where a plain connection fails at
# once and beat goes on with the schedule it has.
PROCESS_ENV = {"beat": {"PULKA_DB_POOL_SIZE": "0"}}


def relay(name: str, stream, lock: threading.Lock) -> None:
    """Copy a child's output to ours, each line prefixed with its name."""
    width = 7
    for line in iter(stream.readline, ""):
        with lock:
            sys.stdout.write(f"{name:<{width}}| {line}")
            sys.stdout.flush()
    stream.close()


class Supervisor:
    def __init__(self, cmds: dict[str, list[str]], env: dict[str, str]):
        self.cmds = cmds
        self.env = env
        self.procs: dict[str, subprocess.Popen] = {}
        self.deaths: dict[str, deque] = {name: deque() for name in cmds}
        self.stopping = False
        self.lock = threading.Lock()
        self.preexec = parent_death_signal()

    def start(self) -> None:
        for name in self.cmds:
            self.start_one(name)

    def start_one(self, name: str) -> None:
        proc = subprocess.Popen(
            self.cmds[name],
            cwd=BASE_DIR,
            env={**self.env, **PROCESS_ENV.get(name, {})},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
            # Own session: a Ctrl-C or a group kill reaches only this
            # supervisor, which then stops each child in order. (Signalled
            # directly, Celery's pool processes die under their parent and
            # leave it hanging in its warm shutdown.)
            start_new_session=True,
            preexec_fn=self.preexec,
        )
        self.procs[name] = proc
        threading.Thread(
            target=relay, args=(name, proc.stdout, self.lock), daemon=True
        ).start()

    def request_stop(self, signum=None, frame=None) -> None:
        self.stopping = True

    def wait(self) -> int:
        """Run until a stop is requested, restarting a child that exits;
        return the exit code (1 when a child had to be given up on)."""
        given_up = None
        parent = os.getppid()
        while not self.stopping and given_up is None:
            if os.getppid() != parent:
                # Whoever started us (make, a terminal) is gone: shut down
                # rather than leave servers running with no one to stop them.
                self.say("Parent process exited; stopping.")
                break
            for name, proc in list(self.procs.items()):
                if proc.poll() is None or self.stopping:
                    continue
                self.say(f"{name} {how_it_ended(proc.returncode)}.")
                if self.dying_too_often(name):
                    self.say(
                        f"{name} died {MAX_RESTARTS} times in {RESTART_WINDOW} s; "
                        "stopping the rest. Its last lines above say why."
                    )
                    given_up = name
                    break
                self.say(f"Starting {name} again.")
                self.start_one(name)
            time.sleep(0.2)
        self.stop()
        return 1 if given_up else 0

    def dying_too_often(self, name: str) -> bool:
        deaths = self.deaths[name]
        now = time.monotonic()
        deaths.append(now)
        while deaths and deaths[0] < now - RESTART_WINDOW:
            deaths.popleft()
        return len(deaths) >= MAX_RESTARTS

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        for name, proc in self.procs.items():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say(f"{name} did not stop in {STOP_TIMEOUT}s; killing it.")
                proc.kill()
                proc.wait()

    def say(self, message: str) -> None:
        with self.lock:
            print(f"{'pulka':<7}| {message}", flush=True)


def how_it_ended(returncode: int) -> str:
    """'exited with code 1', or 'was killed by SIGKILL'."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"was killed by {name}"
    return f"exited with code {returncode}"


def prepare(env: dict[str, str], demo: bool) -> None:
    """Apply the migrations and create the demo data (once: it leaves what
    exists alone)."""
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput"], cwd=BASE_DIR, env=env, check=True)
    if demo:
        subprocess.run([*manage, "seed_demo"], cwd=BASE_DIR, env=env, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("PULKA_HOST", "127.0.0.1"))
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get("PULKA_PORT", "8000"))
    )
    parser.add_argument(
        "--no-demo", action="store_true", help="do not create the demo data"
    )
    args = parser.parse_args()

    env = os.environ.copy()
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    env["PYTHONUNBUFFERED"] = "1"

    with EmbeddedServices() as services:
        if services.used:
            print(f"{'pulka':<7}| embedded {' and '.join(services.used)} are up")
        prepare(env, demo=not args.no_demo)
        return supervise(args, env)


def supervise(args, env: dict[str, str]) -> int:
    supervisor = Supervisor(commands(args.host, args.port), env)
    signal.signal(signal.SIGINT, supervisor.request_stop)
    signal.signal(signal.SIGTERM, supervisor.request_stop)
    supervisor.start()

    site = f"http://{args.host}:{args.port}"
    supervisor.say(f"Pulka is starting at {site}/")
    supervisor.say(
        f"admin {site}/admin/  API docs {site}/api/v1/docs/  health {site}/health/"
    )
    supervisor.say(
        "Web server, Celery worker, Celery beat and the reviews' worker are running."
    )
    supervisor.say("Press Ctrl-C to stop them all.")
    code = supervisor.wait()
    supervisor.say("Stopped.")
    return code


if __name__ == "__main__":
    sys.exit(main())
