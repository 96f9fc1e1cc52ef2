"""A guesser at one account against an account nobody guesses at, from the
same address.

    python benchmarks/lockout.py [--seconds 300] [--rate 10] [--check-every 5]
                                 [--port P]

Starts an embedded PostgreSQL and Redis of its own in a fresh directory
under /tmp (``servers.PrivateServices``: Unix sockets, no TCP port; no other
server is touched) and runs two uvicorn servers side by side on 127.0.0.1,
at ports P and P+1 (free ports without ``--port``), each with a database of
its own:

* **pulka**: the site as configured (``config.settings.dev`` with DEBUG
  off): failures locked per account-and-address pair, with the ceiling per
  address (accounts/lockout.py);
* **peer**: the same site with axes' default lockout parameters,
  ``["ip_address"]``, and its default handler.

On each, two accounts are signed up through the sign-up page. For
``--seconds``, a guesser posts wrong passwords for the first account to the
login page at ``--rate`` guesses a second, and every ``--check-every``
seconds the second account's owner logs in with the right password, from
the same address, in a fresh browser. A check answered 429 is a lockout of
the untouched account. At the end the attacked account's owner tries the
right password from that address too. Prints, per server, the guesses and
how they were answered, the checks and the lockouts among them. Target: 0
lockouts of the untouched account on pulka.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import servers  # noqa: E402

from common.redis_roles import celery_url  # noqa: E402

PASSWORD = "a-long-right-password-7"
DATABASES = {"pulka": "pulka_bench_lockout", "peer": "pulka_bench_lockout_peer"}
REDIS_DBS = {"pulka": 12, "peer": 13}
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def peer_application():
    """The site with axes' default lockout parameters (a uvicorn factory):
    the settings module is changed before Django reads it."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"
    import config.settings.dev as dev

    dev.AXES_LOCKOUT_PARAMETERS = ["ip_address"]
    dev.AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
    from config.asgi import application

    return application


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a login's 302 is the answer itself


class Browser:
    """A browser of its own: cookies, the CSRF token, no redirects followed."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
            NoRedirects(),
        )

    def _open(self, request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def post_form(self, path: str, fields: dict) -> int:
        status, page = self._open(f"{self.base}{path}")
        if status != 200:
            return status
        token = TOKEN.search(page)
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token[1]})
        request = urllib.request.Request(f"{self.base}{path}", data=data.encode())
        return self._open(request)[0]

    def log_in(self, username: str, password: str) -> int:
        fields = {"username": username, "password": password}
        return self.post_form("/accounts/login/", fields)


@dataclass
class Run:
    name: str
    base: str
    guesses: Counter = field(default_factory=Counter)
    checks: Counter = field(default_factory=Counter)
    attacked_at_end: int = 0


def guess(run: Run, deadline: float, rate: float) -> None:
    """Wrong passwords for the attacked account at ``rate`` a second, the
    guesser keeping its session (and its CSRF token) like a script would."""
    browser, count = Browser(run.base), 0
    began = time.monotonic()
    while time.monotonic() < deadline:
        run.guesses[browser.log_in("attacked", f"guess-{count}")] += 1
        count += 1
        pause = began + count / rate - time.monotonic()
        if pause > 0:
            time.sleep(pause)


def check(run: Run, deadline: float, every: float) -> None:
    """The untouched account's owner logs in, in a fresh browser each time."""
    while time.monotonic() < deadline:
        run.checks[Browser(run.base).log_in("untouched", PASSWORD)] += 1
        time.sleep(every)


def sign_up(base: str, username: str) -> None:
    fields = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    status = Browser(base).post_form("/accounts/signup/", fields)
    if status != 302:
        sys.exit(f"signing {username} up at {base} answered {status}")


def start(
    name: str, port: int, env: dict, log_dir: Path
) -> tuple[subprocess.Popen, str]:
    app, app_dir = ["config.asgi:application"], None
    if name == "peer":
        app = ["lockout:peer_application", "--factory"]
        app_dir = Path(__file__).resolve().parent
    log_path = log_dir / f"lockout_{name}_{port}.log"
    proc = servers.start_uvicorn(app, port, env, log_path, app_dir)
    base = f"http://127.0.0.1:{port}"
    servers.wait_for_health(proc, f"{base}/health/", log_path)
    return proc, base


def environment(name: str, services: servers.PrivateServices) -> dict:
    redis = services.redis_url(REDIS_DBS[name])
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DEBUG": "False",
        "LOG_LEVEL": "ERROR",
        "DATABASE_URL": services.create_database(DATABASES[name]),
        "REDIS_URL": redis,
        "CELERY_BROKER_URL": celery_url(redis),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--rate", type=float, default=10, help="guesses a second")
    parser.add_argument("--check-every", type=float, default=5)
    parser.add_argument(
        "--port", type=int, help="pulka's port, the peer's the next (default: free)"
    )
    args = parser.parse_args()
    log_dir = Path(os.environ.get("TMPDIR", "/tmp"))

    with servers.PrivateServices() as services:
        procs, runs = [], []
        ports = servers.ports(args.port, len(DATABASES))
        try:
            for name, port in zip(DATABASES, ports, strict=True):
                env = environment(name, services)
                subprocess.run(
                    [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
                    cwd=BASE_DIR,
                    env=env,
                    check=True,
                )
                proc, base = start(name, port, env, log_dir)
                procs.append(proc)
                for username in ("attacked", "untouched"):
                    sign_up(base, username)
                runs.append(Run(name, base))
            deadline = time.monotonic() + args.seconds
            threads = [
                threading.Thread(target=work, args=(run, deadline, value))
                for run in runs
                for work, value in ((guess, args.rate), (check, args.check_every))
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            for run in runs:
                run.attacked_at_end = Browser(run.base).log_in("attacked", PASSWORD)
        finally:
            for proc in procs:
                servers.stop_server(proc)
    report(runs, args)


def report(runs: list[Run], args) -> None:
    print(
        f"lockout: {args.seconds:.0f} s of wrong passwords for one account at "
        f"{args.rate:g}/s from 127.0.0.1, and the right password of an "
        f"untouched account from 127.0.0.1 every {args.check_every:g} s; "
        f"{os.cpu_count()} CPUs"
    )
    names = {
        "pulka": "pulka (pair + address ceiling)",
        "peer": 'axes default (["ip_address"])',
    }
    print(
        f"\n{'':<34}{'guesses':>8}{'as 200':>8}{'as 429':>8}"
        f"{'checks':>8}{'locked':>8}{'attacked':>10}"
    )
    for run in runs:
        print(
            f"{names[run.name]:<34}{sum(run.guesses.values()):>8}"
            f"{run.guesses[200]:>8}{run.guesses[429]:>8}"
            f"{sum(run.checks.values()):>8}{run.checks[429]:>8}"
            f"{run.attacked_at_end:>10}"
        )
    print(
        "\n(guesses as 200: the form again, the password checked; as 429: "
        "refused unchecked. checks: logins of the untouched account, locked: "
        "those answered 429. attacked: the attacked account's right password "
        "at the end.)"
    )
    for run in runs:
        other = set(run.guesses) - {200, 429} | set(run.checks) - {302, 429}
        if other:
            print(f"{run.name}: other answers: {dict(run.guesses)} {dict(run.checks)}")
    ours = next(run for run in runs if run.name == "pulka")
    met = "meets" if ours.checks[429] == 0 else "MISSES"
    print(
        f"verdict: untouched account locked out on pulka: {ours.checks[429]} of "
        f"{sum(ours.checks.values())} logins ({met} the 0 target)"
    )


if __name__ == "__main__":
    main()
