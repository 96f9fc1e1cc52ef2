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


TURN_SECONDS = 3


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("write", ["lost with the owner", "committed after it died"])
def test_a_timeout_whose_owner_dies_before_its_commit_is_applied_once(
    own_servers, worker, people, write
):
    """A turn runs out and the owner's write of the timeout is on its way
    when the owner is killed: held up by a table lock, then either lost (its
    database session ends with it) or committed all the same. Either way the
    server that takes the game over applies that timeout exactly once."""
    owner, owner_url = own_servers("owner")
    alice, bob = people(2)
    game = new_match(alice, bob, turn_seconds=TURN_SECONDS)
    _, other_url = own_servers("other")
    # Bob, on both servers, stays connected through the killing; Alice never
    # comes, so no grace runs and the turns' timers are all there is. (On a
    # loaded machine a turn may run out before Bob is connected: the timeout
    # watched is whichever is written while the lock is held.)
    params = connection.get_connection_params()
    locker = connection.get_new_connection(params)
    watcher = connection.get_new_connection(params)
    watcher.autocommit = True

    def last_version() -> int:
        return watcher.execute(
            "SELECT max(version) FROM games_gameevent WHERE game_id = %s", [game.pk]
        ).fetchone()[0]

    async def scenario():
        async with (
            TableClient(owner_url, game.pk, bob.session_key),
            TableClient(other_url, game.pk, bob.session_key) as b,
        ):
            # Event rows may be read, not written, until the lock goes.
            locker.execute("LOCK TABLE games_gameevent IN SHARE MODE")
            limit = time.monotonic() + 15
            while not (writers := waiting_event_writes(watcher)):
                assert time.monotonic() < limit, "the timeout was never written"
                await asyncio.sleep(0.1)
            blocked = last_version() + 1  # the version of the write held up
            kill(owner)
            killed_at = time.monotonic()
            if write == "lost with the owner":
                for pid in writers:
                    watcher.execute("SELECT pg_terminate_backend(%s)", [pid])
            locker.rollback()
            await b.receive_until(at_version(blocked), timeout=30)
            return blocked, time.monotonic() - killed_at, b

    try:
        blocked, took, b = asyncio.run(scenario())
    finally:
        locker.close()
        watcher.close()

    assert took < TAKEOVER_SECONDS + 5, f"taken over after {took:.1f} s"
    rows = event_rows(game.pk)
    assert [v for v, *_ in rows] == list(range(1, len(rows) + 1))
    causes = {v: cause for v, _, _, cause in rows}
    # The step held up is that timeout, written once, by whichever owner got
    # to it; the turn after it ran its whole time (a second application of
    # the same timeout would be a step right after it).
    assert causes[blocked] == GameEvent.Cause.TIMEOUT, rows
    written = dict(
        GameEvent.objects.filter(game=game).values_list("version", "created_at")
    )
    if blocked + 1 in written:
        gap = (written[blocked + 1] - written[blocked]).total_seconds()
        assert gap >= TURN_SECONDS - 0.5, f"the next step came {gap:.2f} s later"
    assert not b.errors
