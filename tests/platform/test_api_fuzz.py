"""Schemathesis over the whole API schema, against a real server: every
check it has (``--checks all``), anonymous and signed in with a personal
token, with no failure. It generates requests from the schema, valid and
invalid, and checks each answer against the schema: status codes, content
types, bodies, that bad input is refused and good input accepted."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.authtoken.models import Token

from config.limits import uvicorn_limits
from games.models import Game
from tests.factories import UserFactory
from tests.processes import Process, database_url, free_port, wait_for_http
from tests.ranked.helpers import finish, ranked_game
from tests.tournaments.support import make_tournament
from tournaments.models import Tournament

# Seeded, so that a run can be repeated; enough cases per operation to try
# every parameter and body field a few ways (scripts/api_fuzz.py runs for
# minutes).
SEED = 20261201
EXAMPLES = 15


def schemathesis() -> str:
    found = shutil.which("st", path=str(Path(sys.executable).parent))
    assert found, "schemathesis is a dev dependency: make install"
    return found


@pytest.fixture
def api_server(transactional_db, tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONUNBUFFERED": "1",
    }
    port = free_port()
    cmd = [
        sys.executable, "-m", "uvicorn", "config.asgi:application",
        "--host", "127.0.0.1", "--port", str(port),
        "--lifespan", "on", "--log-level", "warning", *uvicorn_limits(),
    ]  # fmt: skip
    process = Process("uvicorn", cmd, env, tmp_path)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(process, f"{url}/health/", 60)
        yield url
        process.check_alive()
    finally:
        process.stop()


def something_to_find():
    """A finished ranked game and a tournament, so that the ids the lists
    give lead somewhere."""
    finish(ranked_game("japanese"))
    make_tournament()
    assert Game.objects.exists() and Tournament.objects.exists()


def run(url: str, *headers: str) -> subprocess.CompletedProcess:
    cmd = [
        schemathesis(), "run", f"{url}/api/v1/schema/",
        "--checks", "all", "--max-examples", str(EXAMPLES), "--seed", str(SEED),
        # One worker: in two threads, hypothesis's descriptions of lambdas
        # call ast.parse at once, and Python 3.11.7's AST builder keeps its
        # recursion depth in state the threads share, so one of them can die
        # with "AST constructor recursion depth mismatch" (CPython
        # gh-106905), a crash of the fuzzer, not a finding.
        "--request-timeout", "20", "--workers", "1", "--no-color",
        # A NUL character is refused with a 400 before any view runs (the
        # database cannot hold one; tests/test_bad_addresses.py); the schema
        # says so only through this option.
        "--generation-allow-x00", "false",
    ]  # fmt: skip
    for header in headers:
        cmd += ["--header", header]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_schemathesis_finds_the_api_clean_anonymous_and_signed_in(api_server):
    something_to_find()
    token = Token.objects.create(user=UserFactory()).key

    for who, headers in [
        ("anonymous", ()),
        ("signed in", (f"Authorization: Token {token}",)),
    ]:
        result = run(api_server, *headers)
        assert result.returncode == 0, f"{who}:\n{result.stdout[-6000:]}"
        assert "passed" in result.stdout
