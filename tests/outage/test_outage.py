"""Every game server down for ten seconds in the middle of a turn: real
uvicorn processes, PostgreSQL, Redis and a Celery worker, and no other
server to take the game over meanwhile."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime

import pytest

from games.models import Game, GameEvent
from tests.live.support import TableClient
from tests.live.test_owners import at_version, event_rows, new_match

OUTAGE_SECONDS = 10


@pytest.mark.timeout(150)
@pytest.mark.django_db(transaction=True)
def test_servers_stopped_for_ten_seconds_cost_nobody_a_turn(
    own_servers, worker, people
):
    server, url = own_servers("before")
    alice, bob = people(2)
    game = new_match(alice, bob, turn_seconds=15)

    async def before():
        async with (
            TableClient(url, game.pk, alice.session_key) as a,
            TableClient(url, game.pk, bob.session_key) as b,
        ):
            await asyncio.gather(
                a.play_until(at_version(6), timeout=40),
                b.play_until(at_version(6), timeout=40),
            )
            # Wait for the owner's heartbeat to note the seats present.
            await asyncio.sleep(2.5)
            return a.snapshot

    left = asyncio.run(before())
    server.stop()
    # Longer than an owner's lease (games.live.leases), so that the server
    # started after finds the game nobody's.
    time.sleep(OUTAGE_SECONDS)
    _, url = own_servers("after")

    async def after():
        async with (
            TableClient(url, game.pk, alice.session_key) as a,
            TableClient(url, game.pk, bob.session_key) as b,
        ):
            return a.snapshot, b.snapshot

    a_sync, b_sync = asyncio.run(after())
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    # No turn expired and nobody left: the game is where it was.
    assert game.version == left["version"] == a_sync["version"] == b_sync["version"]
    assert not [c for *_, c in event_rows(game.pk) if c != GameEvent.Cause.PLAYER]
    # The turn's deadline moved on by the time no server was there.
    moved = datetime.fromisoformat(a_sync["deadline"]) - datetime.fromisoformat(
        left["deadline"]
    )
    assert moved.total_seconds() >= OUTAGE_SECONDS
    assert a_sync["deadline"] == b_sync["deadline"] == game.deadline.isoformat()
    assert a_sync["view"]["turn"] == left["view"]["turn"]
