"""A move sends nothing to the broker: its timer is the owner's alarm, and
its deadline is stored with the move. A change that rolls back tells
nobody anything."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.db import transaction

from common import redis_roles
from config.celery import app as celery_app
from games.models import Game
from tests.games.helpers import move, start_game

pytestmark = pytest.mark.django_db(transaction=True)


def queued_tasks() -> list[str]:
    """The names of the tasks waiting on the broker."""
    client = redis_roles.connect(settings.PULKA_BROKER_URL)
    messages = client.lrange(settings.CELERY_TASK_DEFAULT_QUEUE, 0, -1)
    client.close()
    return [json.loads(message)["headers"]["task"] for message in messages]


def a_game_between_people() -> Game:
    game = start_game("japanese", {"target": 11}, people=2, turn_seconds=60)
    celery_app.control.purge()
    return Game.objects.get(pk=game.pk)


def test_a_committed_move_queues_no_task_and_stores_its_deadline():
    game = a_game_between_people()
    before = game.deadline
    move(game)
    game.refresh_from_db()
    assert game.version == 2 and game.deadline > before
    assert queued_tasks() == []


def test_a_move_that_rolls_back_changes_nothing():
    game = a_game_between_people()
    version = game.version
    with pytest.raises(RuntimeError), transaction.atomic():
        move(game)
        raise RuntimeError("rolled back")

    game.refresh_from_db()
    assert game.version == version
    assert game.events.count() == version
    assert queued_tasks() == []
