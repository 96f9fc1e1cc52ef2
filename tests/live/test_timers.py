"""Turn timers in the games' owners on real servers, with one-second
deadlines; the beat's sweep on a real Celery worker."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game, GameEvent
from games.tasks import sweep

from .support import barrier, wait_until

TIMEOUT = GameEvent.Cause.TIMEOUT


def japanese_game(people, turn_seconds: int) -> Game:
    """A started Japanese game between two people, neither connected."""
    alice, bob = people(2)
    table = services.table_create(
        user=alice.user, profile="japanese", turn_seconds=turn_seconds
    )
    services.seat_take(table_id=table.pk, user=bob.user, number=1)
    return Game.objects.get(table=table)


def timeouts(game: Game) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game=game, cause=TIMEOUT).order_by("version"))


@pytest.mark.timeout(60)
@pytest.mark.django_db(transaction=True)
def test_a_player_who_does_not_move_gets_one_move_per_deadline(servers, people):
    game = japanese_game(people, turn_seconds=1)
    started = game.events.get(version=game.version).created_at
    time.sleep(0.5)
    assert timeouts(game) == [], "moved before the deadline"

    wait_until(lambda: len(timeouts(game)) >= 4, 15, "four automatic moves")

    moves = timeouts(game)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    # One move per deadline: each came a whole turn after the step before it
    # (a deal step may follow a move at once, so compare with the previous
    # step, whatever it was), never two for one deadline.
    for move in moves:
        previous = GameEvent.objects.get(game=game, version=move.version - 1)
        waited = (move.created_at - previous.created_at).total_seconds()
        assert waited >= 0.95, (move.version, waited)
    assert (moves[0].created_at - started).total_seconds() >= 0.95
    assert len({move.version for move in moves}) == len(moves)
    # Nothing but timeouts moved this game.
    assert not GameEvent.objects.filter(game=game, kind="action").exclude(cause=TIMEOUT)


def unowned_game(people, monkeypatch) -> Game:
    """A game no server was told of (the message lost): nobody owns it, and
    its first turn is long overdue."""
    monkeypatch.setattr("games.live.local.outside.tell_owner", lambda *args: None)
    game = japanese_game(people, turn_seconds=600)
    monkeypatch.undo()
    Game.objects.filter(pk=game.pk).update(
        deadline=timezone.now() - timedelta(seconds=30)
    )
    return game


@pytest.mark.timeout(60)
@pytest.mark.django_db(transaction=True)
def test_the_sweep_on_the_worker_hands_an_unowned_game_to_a_server(
    servers, worker, people, monkeypatch
):
    game = unowned_game(people, monkeypatch)
    barrier()
    time.sleep(1)
    assert timeouts(game) == []

    sweep.delay()
    wait_until(lambda: timeouts(game), 10, "the new owner's move")

    # One move; the next deadline is ten minutes away, and the game has an
    # owner now, so sweeping again changes nothing.
    sweep.delay()
    barrier()
    time.sleep(1)
    assert len(timeouts(game)) == 1
    game.refresh_from_db()
    assert game.deadline > timezone.now() + timedelta(seconds=500)


@pytest.mark.timeout(60)
@pytest.mark.django_db(transaction=True)
def test_celery_beat_runs_the_sweep(servers, beat, people, monkeypatch):
    game = unowned_game(people, monkeypatch)

    wait_until(lambda: timeouts(game), 30, "beat's sweep to hand the game over")

    assert len(timeouts(game)) == 1
