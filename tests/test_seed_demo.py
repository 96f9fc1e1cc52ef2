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


def test_seed_demo_creates_players_tables_and_rated_games_once(settings):
    from coins.services import ledger_total, wallet_of
    from games.models import Game, Table
    from ratings.models import RatingChange

    settings.DEBUG = True
    run_seed_demo()
    run_seed_demo()

    players = get_user_model().objects.filter(
        username__in=["nino", "giorgi", "tamar", "levan"]
    )
    assert players.count() == 4
    finished = Game.objects.filter(status=Game.Status.FINISHED)
    assert finished.count() == 2
    assert RatingChange.objects.count() == 2 + 4
    assert Table.objects.filter(status=Table.Status.OPEN).count() == 2
    # Stakes moved between the players and nothing else: the welcome grants
    # are all there is.
    assert sum(wallet_of(p).balance for p in players) == 4 * 1000
    assert ledger_total() == 0
