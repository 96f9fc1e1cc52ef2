"""Settings that must hold in every environment."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

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
