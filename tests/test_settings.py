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

from config import connections

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


@pytest.mark.django_db
def test_the_embedded_server_takes_what_every_process_may_hold():
    """The embedded PostgreSQL's max_connections is the sum of the bounds
    (config.connections): a `make run` and a test worker on every core."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW max_connections")
        (max_connections,) = cursor.fetchone()

    assert int(max_connections) == connections.embedded_max_connections()
