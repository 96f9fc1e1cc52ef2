"""A timer arranged by a change that rolls back never reaches the broker,
so it never runs; the same change committed does queue it."""

from __future__ import annotations

import json

import pytest
import redis
from django.conf import settings
from django.db import transaction

from config.celery import app as celery_app
from games.models import Game
from games.services import notify
from tests.games.helpers import move, start_game

pytestmark = pytest.mark.django_db(transaction=True)


def queued_timers() -> list[str]:
    """The argument lists of the move timers waiting on the broker."""
    assert notify._publisher.flush()
    client = redis.Redis.from_url(settings.REDIS_URL)
    messages = client.lrange(settings.CELERY_TASK_DEFAULT_QUEUE, 0, -1)
    headers = [json.loads(message)["headers"] for message in messages]
    return [
        h["argsrepr"] for h in headers if h["task"] == "games.tasks.advance_overdue"
    ]


def a_game_between_people() -> Game:
    game = start_game("japanese", {"target": 11}, people=2, turn_seconds=60)
    celery_app.control.purge()
    return Game.objects.get(pk=game.pk)


def test_a_committed_move_queues_the_next_timer():
    game = a_game_between_people()
    move(game)
    game.refresh_from_db()
    assert f"({game.pk}, {game.version})" in queued_timers()


def test_a_move_that_rolls_back_queues_nothing():
    game = a_game_between_people()
    version = game.version
    with pytest.raises(RuntimeError), transaction.atomic():
        move(game)
        raise RuntimeError("rolled back")

    game.refresh_from_db()
    assert game.version == version
    assert queued_timers() == []
