"""A turn's timeout whose owner is killed while writing it: real uvicorn
processes killed with SIGKILL, real PostgreSQL, Redis and Celery. Here, not
in ``tests/live``, so that no shared server can own the game instead."""

from __future__ import annotations

import asyncio
import time

import pytest
from django.db import connection

from games.models import GameEvent
from tests.live.support import TableClient
from tests.live.test_owners import (
    TAKEOVER_SECONDS,
    at_version,
    event_rows,
    kill,
    new_match,
)


def waiting_event_writes(watcher) -> list[int]:
    """The server backends waiting on a lock to write a game event."""
    rows = watcher.execute(
        "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        " AND query ILIKE '%%games_gameevent%%' AND pid <> pg_backend_pid()"
    ).fetchall()
    return [pid for (pid,) in rows]


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("write", ["lost with the owner", "committed after it died"])
def test_a_timeout_whose_owner_dies_before_its_commit_is_applied_once(
    own_servers, worker, people, write
):
    """The turn runs out and the owner's write of the timeout is on its way
    when the owner is killed: held up by a table lock, then either lost (its
    database session ends with it) or committed all the same. Either way the
    server that takes the game over applies that timeout exactly once."""
    owner, owner_url = own_servers("owner")
    alice, bob = people(2)
    game = new_match(alice, bob, turn_seconds=3)
    _, other_url = own_servers("other")
    # Bob, on both servers, stays connected through the killing; Alice never
    # comes, so no grace runs and the turn's timer is all there is.
    params = connection.get_connection_params()
    locker = connection.get_new_connection(params)
    watcher = connection.get_new_connection(params)
    watcher.autocommit = True

    async def scenario():
        async with (
            TableClient(owner_url, game.pk, bob.session_key),
            TableClient(other_url, game.pk, bob.session_key) as b,
        ):
            version = b.snapshot["version"]
            # Event rows may be read, not written, until the lock goes.
            locker.execute("LOCK TABLE games_gameevent IN SHARE MODE")
            limit = time.monotonic() + 15
            while not (writers := waiting_event_writes(watcher)):
                assert time.monotonic() < limit, "the timeout was never written"
                await asyncio.sleep(0.1)
            kill(owner)
            killed_at = time.monotonic()
            if write == "lost with the owner":
                for pid in writers:
                    watcher.execute("SELECT pg_terminate_backend(%s)", [pid])
            locker.rollback()
            await b.receive_until(at_version(version + 1), timeout=30)
            return version, time.monotonic() - killed_at, b

    try:
        version, took, b = asyncio.run(scenario())
    finally:
        locker.close()
        watcher.close()

    assert took < TAKEOVER_SECONDS + 5
    rows = event_rows(game.pk)
    assert [v for v, *_ in rows] == list(range(1, len(rows) + 1))
    # The step after the one the clients saw is that timeout, and the first
    # timeout of the game: written once, by whichever owner got to it.
    causes = {v: cause for v, _, _, cause in rows}
    assert causes[version + 1] == GameEvent.Cause.TIMEOUT
    assert GameEvent.Cause.TIMEOUT not in [causes[v] for v in range(1, version + 1)]
    assert not b.errors
