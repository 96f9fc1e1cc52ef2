"""Turn timers on a real Celery worker over Redis, with one-second deadlines."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game, GameEvent
from games.tasks import advance_overdue, sweep

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
def test_a_player_who_does_not_move_gets_one_move_per_deadline(worker, people):
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


@pytest.mark.timeout(60)
@pytest.mark.django_db(transaction=True)
def test_a_timer_delivered_more_than_once_moves_once(worker, people):
    game = japanese_game(people, turn_seconds=3)
    version, deadline = game.version, game.deadline

    # Twice before the deadline: both find it still ahead and do nothing.
    advance_overdue.delay(game.pk, version)
    advance_overdue.delay(game.pk, version)
    barrier()
    assert timezone.now() < deadline, "too slow to test before the deadline"
    game.refresh_from_db()
    assert game.version == version
    assert timeouts(game) == []

    # The scheduled timer moves once the deadline passes.
    wait_until(lambda: timeouts(game), 10, "the automatic move")
    (move,) = timeouts(game)
    assert move.version == version + 1
    assert move.created_at >= deadline
    game.refresh_from_db()
    moved_to, next_deadline = game.version, game.deadline

    # The old timer delivered again after the move: the game has moved on.
    advance_overdue.delay(game.pk, version)
    advance_overdue.delay(game.pk, version)
    barrier()
    assert timezone.now() < next_deadline, "too slow to test before the deadline"
    game.refresh_from_db()
    assert game.version == moved_to
    assert len(timeouts(game)) == 1

    # The new timer still runs: the next move comes after the next deadline.
    wait_until(lambda: len(timeouts(game)) == 2, 10, "the next automatic move")
    assert timeouts(game)[1].created_at >= next_deadline


def lost_timer_game(people) -> Game:
    """A game whose move is overdue though no timer task is due: the task
    set for it waits ten minutes, and the deadline is moved into the past
    behind its back."""
    game = japanese_game(people, turn_seconds=600)
    Game.objects.filter(pk=game.pk).update(
        deadline=timezone.now() - timedelta(seconds=30)
    )
    return game


@pytest.mark.timeout(60)
@pytest.mark.django_db(transaction=True)
def test_the_sweep_on_the_worker_catches_a_lost_timer(worker, people):
    game = lost_timer_game(people)
    barrier()
    assert timeouts(game) == []

    sweep.delay()
    wait_until(lambda: timeouts(game), 10, "the sweep's move")

    # One move; the game's new deadline is ten minutes away, so sweeping
    # again changes nothing.
    sweep.delay()
    barrier()
    assert len(timeouts(game)) == 1
    game.refresh_from_db()
    assert game.deadline > timezone.now() + timedelta(seconds=500)


@pytest.mark.timeout(60)
@pytest.mark.django_db(transaction=True)
def test_celery_beat_runs_the_sweep(beat, people):
    game = lost_timer_game(people)

    wait_until(lambda: timeouts(game), 30, "beat's sweep to move the game")

    assert len(timeouts(game)) == 1
