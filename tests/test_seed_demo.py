"""The seed_demo management command."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def run_seed_demo(**options) -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out, **options)
    return out.getvalue()


def test_seed_demo_creates_the_admin_once(settings):
    settings.DEBUG = True

    first = run_seed_demo()
    second = run_seed_demo()

    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff
    assert admin.check_password("admin")
    assert "password 'admin'" in first
    assert "already exists" in second
    assert get_user_model().objects.filter(username="admin").count() == 1


def test_seed_demo_refuses_without_debug(settings):
    settings.DEBUG = False

    with pytest.raises(CommandError):
        run_seed_demo()

    assert not get_user_model().objects.filter(username="admin").exists()


def test_seed_demo_can_be_forced(settings):
    settings.DEBUG = False

    run_seed_demo(force=True)

    assert get_user_model().objects.filter(username="admin").exists()
