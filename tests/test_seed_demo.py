"""The seed_demo management command. It plays the demo's whole games and
tournaments, so its tests are in the slow tier."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


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
    finished = Game.objects.filter(status=Game.Status.FINISHED, table__ranked=True)
    assert finished.count() == 2
    assert RatingChange.objects.count() == 2 + 4
    assert Table.objects.filter(status=Table.Status.OPEN).count() == 2
    # Stakes and the demo tournament's fees and prizes moved between the
    # players and nothing else: the welcome grants are all there is.
    from coins.models import Account

    pools = Account.objects.filter(kind=Account.Kind.TOURNAMENT_POOL)
    in_pools = sum(pool.balance for pool in pools)
    # Two entries to the open tournament, one to the open arena.
    assert in_pools == 2 * 50 + 10
    assert sum(wallet_of(p).balance for p in players) + in_pools == 4 * 1000
    assert ledger_total() == 0


def test_seed_demo_creates_tournaments_once(settings):
    from coins.services import Kind, escrow_balance
    from tournaments.models import Schedule, Tournament

    settings.DEBUG = True

    first = run_seed_demo()
    run_seed_demo()

    assert "finished Swiss tournament" in first
    finished = Tournament.objects.get(status=Tournament.Status.FINISHED)
    entries = list(finished.entries.all())
    assert len(entries) == 3
    assert sorted(e.place for e in entries)[0] == 1
    assert sum(e.prize for e in entries) == 3 * finished.entry_fee
    assert finished.round_set.count() == 2
    assert escrow_balance(finished.pool_ref, Kind.TOURNAMENT_POOL) == 0
    upcoming = Tournament.objects.get(name="Friday Joker")
    assert upcoming.status == Tournament.Status.SCHEDULED
    assert upcoming.entries.count() == 2
    schedule = Schedule.objects.get()
    assert Tournament.objects.filter(schedule=schedule).count() == 1


def test_seed_demo_makes_friends_once(settings):
    from social.models import FriendRequest
    from social.selectors import friend_ids

    settings.DEBUG = True

    first = run_seed_demo()
    second = run_seed_demo()

    assert "friends (nino with giorgi and tamar" in first
    assert "Created demo friends" not in second
    users = {u.username: u.pk for u in get_user_model().objects.all()}
    assert friend_ids(users["nino"]) == {users["giorgi"], users["tamar"]}
    waiting = FriendRequest.objects.get()
    assert (waiting.sender_id, waiting.receiver_id) == (users["levan"], users["nino"])


def _queued_tasks() -> list[str]:
    """The names of the tasks waiting in the test queue on the broker."""
    import json

    from django.conf import settings

    from common import redis_roles

    client = redis_roles.connect(settings.PULKA_BROKER_URL)
    messages = client.lrange(settings.CELERY_TASK_DEFAULT_QUEUE, 0, -1)
    return [json.loads(message)["headers"]["task"] for message in messages]


# Committed for real, so that what each commit arranges (broadcasts, timers)
# happens as it does in `make run`.
@pytest.mark.django_db(transaction=True)
def test_seed_demo_plays_in_the_past_and_leaves_no_timers(settings):
    from django.utils import timezone

    from config.celery import app as celery_app
    from games.models import Game, GameEvent
    from tournaments.models import Tournament

    settings.DEBUG = True
    celery_app.control.purge()
    before = timezone.now()

    run_seed_demo()

    assert not [task for task in _queued_tasks() if task.startswith("games.")]
    finished = Game.objects.filter(status=Game.Status.FINISHED)
    assert finished.count() == 2 + 2  # two ranked games, two tournament games
    for game in finished:
        assert game.started_at < game.finished_at < before
        assert game.deadline is None
    assert not GameEvent.objects.filter(created_at__gte=before).exists()
    cup = Tournament.objects.get(status=Tournament.Status.FINISHED)
    assert cup.starts_at < cup.finished_at < before
