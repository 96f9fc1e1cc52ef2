"""Settings that must hold in every environment."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config import connections, embedded

BASE_DIR = Path(settings.BASE_DIR)


def test_time_is_utc_and_aware():
    assert settings.TIME_ZONE == "UTC"
    assert settings.USE_TZ is True


def test_languages():
    assert [code for code, _ in settings.LANGUAGES] == ["en", "ka", "ru", "tr"]
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE


@pytest.mark.slow
def test_production_settings_pass_the_deployment_checks():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
    }
    proc = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "check",
            "--deploy",
            "--fail-level",
            "WARNING",
        ],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_production_settings_require_a_secret_key():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.production"}
    env.pop("SECRET_KEY", None)
    proc = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert proc.returncode != 0
    assert "SECRET_KEY" in proc.stderr


@pytest.mark.parametrize(
    "module", ["config.settings.production", "config.settings.dev"]
)
def test_every_process_pools_its_connections_with_a_short_wait(module):
    """What a site's process reads (the test process alone connects without
    the pool: tests/conftest.py): a pool of at most the size config.connections
    adds up, a wait for a connection well under a socket's silence limit, and
    no persistent connections, which Django refuses beside a pool."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": module,
        "SECRET_KEY": secrets.token_urlsafe(50),
    }
    show = (
        "import json, django; django.setup(); from django.conf import settings;"
        "d = settings.DATABASES['default'];"
        "print(json.dumps([d['CONN_MAX_AGE'], d['OPTIONS']['pool'],"
        " settings.PULKA_SOCKET_SILENCE_SECONDS]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", show],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    conn_max_age, pool, silence = json.loads(proc.stdout.splitlines()[-1])

    assert conn_max_age == 0
    assert pool["max_size"] == connections.POOL_SIZE
    assert 0 < pool["timeout"] < silence / 2


def server_setting(name: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SHOW {name}")
        (value,) = cursor.fetchone()
    return int(value)


@pytest.mark.django_db
def test_the_database_server_takes_what_every_process_may_hold():
    """The embedded PostgreSQL's max_connections is the sum of the bounds
    (config.connections): a `make run` and `make test`'s workers. A server
    of one's own (DATABASE_URL) is sized by its operator: there, a web
    process's pools must at least fit in what the server gives ordinary
    users, or a burst could never be served."""
    max_connections = server_setting("max_connections")
    if connection.settings_dict["HOST"] == str(embedded.POSTGRES_DIR):
        assert max_connections == connections.embedded_max_connections()
    else:
        web = settings.PULKA_DB_POOL_SIZE + settings.PULKA_JOURNAL_CONNECTIONS
        reserved = server_setting("superuser_reserved_connections")
        reserved += (
            server_setting("reserved_connections")
            if (connection.pg_version >= 160000)
            else 0
        )
        assert web <= max_connections - reserved


def test_the_embedded_server_counts_on_eight_test_workers_at_most():
    """The embedded max_connections grows with the cores up to the test
    workers `make test` runs (one a core, at most TEST_WORKERS_MAX, as the
    Makefile caps PYTEST_WORKERS), and no further."""
    cap = connections.TEST_WORKERS_MAX
    figures = [connections.embedded_max_connections(cores) for cores in (1, 2, cap)]
    assert figures == sorted(set(figures))
    for cores in (cap + 1, 64, 256):
        assert connections.embedded_max_connections(cores) == figures[-1]
    assert connections.test_workers(64) == cap
    makefile = (BASE_DIR / "Makefile").read_text()
    assert f"echo $$(( cores < {cap} ? cores : {cap} ))" in makefile
