#!/usr/bin/env python
"""Schemathesis over the whole API for a while, counting what must never be.

    python scripts/api_fuzz.py [--minutes 10] [--seed N] [--keep-reports DIR]
                               [--port P]

Starts an embedded PostgreSQL and Redis of its own in a fresh directory
under /tmp (benchmarks/servers.py: Unix sockets, no TCP port; no other
server is touched); creates the database ``pulka_fuzz`` there, migrates it
and adds the demo data (so that the ids the lists give lead somewhere) and a
player with a personal token; and serves it with one uvicorn process on port
P (a free one without ``--port``) as the site runs (the project's settings
with DEBUG off, the server command line of config/limits.py). Throttling is
raised out of the way, so that the time goes on the views.

Then two Schemathesis runs at once, each for the whole time (``--max-time``),
every check on (``--checks all``): one anonymous, one signed in with the
token. Every request and answer is recorded (HAR); at the end the script
counts the answers under /api/ that are not JSON and those with a 5xx
status, prints them with Schemathesis' own verdicts (its whole output is
kept next to the HAR files), and exits 1 unless both counts are 0 and both
runs passed. (tests/platform/test_api_fuzz.py is the short run CI makes.)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "benchmarks"))

import servers  # noqa: E402

from common.redis_roles import celery_url  # noqa: E402

DATABASE = "pulka_fuzz"
REDIS_DB = 11
SEED = 20261203


def manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


TOKEN_SCRIPT = """
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
user, _ = get_user_model().objects.get_or_create(username="fuzzer")
print(Token.objects.get_or_create(user=user)[0].key)
"""


def schemathesis(base: str, minutes: float, seed: int, har: Path, *headers):
    command = [
        shutil.which("st", path=str(Path(sys.executable).parent)) or "st",
        "run", f"{base}/api/v1/schema/",
        "--checks", "all", "--max-time", str(int(minutes * 60)),
        "--seed", str(seed), "--workers", "2", "--request-timeout", "20",
        "--no-color", "--report", "har", "--report-har-path", str(har),
        # A NUL character is refused with a 400 before any view runs; the
        # schema says so only through this option (as in the CI run).
        "--generation-allow-x00", "false",
    ]  # fmt: skip
    for header in headers:
        command += ["--header", header]
    return subprocess.run(command, capture_output=True, text=True)


def count(har: Path) -> tuple[int, Counter, list[str]]:
    """Answers under /api/ in a HAR file: how many, by kind of fault, and a
    few of the faulty ones."""
    entries = json.loads(har.read_text())["log"]["entries"]
    faults, examples, total = Counter(), [], 0
    for entry in entries:
        request, response = entry["request"], entry["response"]
        if not urlsplit(request["url"]).path.startswith("/api/"):
            continue
        total += 1
        status = response["status"]
        kind = response["content"].get("mimeType", "")
        headers = {h["name"].lower(): h["value"] for h in response["headers"]}
        kind = headers.get("content-type", kind)
        found = []
        if status >= 500:
            found.append("5xx")
        if status and not kind.startswith("application/json") and status != 204:
            found.append("not JSON")
        for fault in found:
            faults[fault] += 1
        if found and len(examples) < 10:
            examples.append(
                f"{request['method']} {request['url'][:120]} -> {status} {kind}"
            )
    return total, faults, examples


def verdict(output: str) -> str:
    """Schemathesis' closing summary lines."""
    lines = [line for line in output.splitlines() if line.strip()]
    return "\n".join(lines[-12:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--keep-reports", type=Path, help="keep the HAR files here")
    parser.add_argument("--port", type=int, help="the server's port (default: free)")
    args = parser.parse_args()
    reports = args.keep_reports or Path(tempfile.mkdtemp(prefix="api_fuzz_"))
    reports.mkdir(parents=True, exist_ok=True)

    with servers.PrivateServices() as services:
        redis = services.redis_url(REDIS_DB)
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.dev",
            "DEBUG": "False",
            "LOG_LEVEL": "ERROR",
            "DATABASE_URL": services.create_database(DATABASE),
            "REDIS_URL": redis,
            "CELERY_BROKER_URL": celery_url(redis),
            "API_THROTTLE_ANON": "1000000/minute",
            "API_THROTTLE_USER": "1000000/minute",
        }
        manage(env, "migrate", "--verbosity", "0")
        # A local database of this run's own, never a public server.
        manage(env, "seed_demo", "--force")
        token = manage(env, "shell", "-c", TOKEN_SCRIPT).strip().splitlines()[-1]
        port = servers.ports(args.port, 1)[0]
        base = f"http://127.0.0.1:{port}"
        log_path = reports / "uvicorn.log"
        proc = servers.start_uvicorn(["config.asgi:application"], port, env, log_path)
        try:
            servers.wait_for_health(proc, f"{base}/health/", log_path)
            began = time.monotonic()
            runs = {
                "anonymous": (),
                "signed in": (f"Authorization: Token {token}",),
            }
            with ThreadPoolExecutor(len(runs)) as pool:
                futures = {
                    who: pool.submit(
                        schemathesis,
                        base,
                        args.minutes,
                        args.seed + n,
                        reports / f"{who.replace(' ', '_')}.har",
                        *headers,
                    )
                    for n, (who, headers) in enumerate(runs.items())
                }
                results = {who: future.result() for who, future in futures.items()}
            seconds = time.monotonic() - began
        finally:
            servers.stop_server(proc)
    report(args, seconds, reports, results)


def report(args, seconds: float, reports: Path, results: dict) -> None:
    print(
        f"api_fuzz: Schemathesis, every check, {args.minutes:g} minutes each "
        f"anonymous and signed in at once ({seconds / 60:.1f} min in all), seed "
        f"{args.seed}; one uvicorn process, {os.cpu_count()} CPUs"
    )
    totals, faults = 0, Counter()
    for who, result in results.items():
        har = reports / f"{who.replace(' ', '_')}.har"
        # Schemathesis' whole account, each failure with a curl to repeat it.
        har.with_suffix(".txt").write_text(result.stdout + result.stderr)
        total, found, examples = count(har)
        totals += total
        faults.update(found)
        print(
            f"\n{who}: {total} answers under /api/, "
            f"{found['not JSON']} not JSON, {found['5xx']} 5xx; "
            f"schemathesis exit {result.returncode}"
        )
        for example in examples:
            print(f"  {example}")
        print("  " + verdict(result.stdout).replace("\n", "\n  "))
    print(
        f"\nin all: {totals} answers under /api/; not JSON: {faults['not JSON']} "
        f"(target 0); 5xx: {faults['5xx']} (target 0). Reports in {reports}"
    )
    # A run that failed (a check, or loading the schema) fails this too: a
    # run that could not start made no requests to count.
    failed = [who for who, result in results.items() if result.returncode]
    if failed:
        print(f"schemathesis did not pass: {', '.join(failed)}")
    met = "meets" if not (faults or failed) else "MISSES"
    print(
        f"verdict: {faults['not JSON']} not JSON, {faults['5xx']} 5xx, "
        f"schemathesis {'FAILED' if failed else 'passed'} ({met} the 0, 0 and "
        "pass target)"
    )
    sys.exit(1 if faults or failed else 0)


if __name__ == "__main__":
    main()
