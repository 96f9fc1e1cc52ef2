"""Every kind of socket opened while PostgreSQL refuses the server's
connections is closed cleanly with 4503 (docs/protocol.md: try again), with
a one-line warning in the server's log and no unhandled exception, and opens
once PostgreSQL takes connections again, as the page's client reconnects.
Quick play's pings meanwhile are all answered: they never wait for the
database.

Real processes: a uvicorn server connecting as a role of this test's own
(``tests.database_role``), whose connections PostgreSQL ends and refuses.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from django.utils import timezone
from websockets.exceptions import ConnectionClosed, InvalidStatus

from games import services
from games.consumers.sockets import CLOSE_UNAVAILABLE
from matchmaking import services as quick_play
from matchmaking.models import PoolEntry
from tests.database_role import DatabaseRole
from tests.live.support import db_call
from tests.live.test_owners import new_match
from tests.live.test_user_messages import answers_a_ping, opened
from tests.protocol_document import promises
from tests.tournaments.support import make_tournament

# Long enough that no turn runs out while the test waits.
TURN_SECONDS = 120
# Pings sent while the database refuses: more than the pool's wait would
# let through one thread in the test's time, were each a query.
PINGS = 20
# The tries of a page reconnecting once PostgreSQL takes connections.
RECONNECTIONS = 30


@pytest.fixture
def role(transactional_db):
    with DatabaseRole() as role:
        yield role


async def refusal(url: str, origin: str, session_key: str) -> int | str:
    """How a socket opened at ``url`` ends before any frame: its close
    code, or the HTTP status of a refused handshake."""
    try:
        socket = await opened(url, origin, session_key)
    except InvalidStatus as refused:
        return f"HTTP {refused.response.status_code}"
    try:
        frame = await asyncio.wait_for(socket.recv(), 30)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else "no close frame"
    finally:
        await socket.close()
    return f"a frame: {frame[:80]}"


async def reopened(url: str, origin: str, session_key: str) -> bool:
    """A page's reconnections: closed with 4503 until the server has its
    connections back, then open and answering."""
    for _ in range(RECONNECTIONS):
        try:
            socket = await opened(url, origin, session_key)
        except InvalidStatus:
            return False
        try:
            if await answers_a_ping(socket):
                return True
            if socket.close_code != CLOSE_UNAVAILABLE:
                return False
        finally:
            await socket.close()
        await asyncio.sleep(1)
    return False


@pytest.mark.timeout(240)
def test_every_socket_opened_while_the_database_refuses_closes_with_4503(
    own_servers, people, role
):
    server, url = own_servers("refusing", env={"DATABASE_URL": role.url})
    alice, bob = people(2)
    game = new_match(alice, bob, turn_seconds=TURN_SECONDS)
    waiting = services.table_create(user=bob.user, profile="japanese")
    tournament = make_tournament()
    ws = url.replace("http", "ws", 1)
    paths = {
        "game": f"/ws/games/{game.pk}/",
        "waiting table": f"/ws/tables/{waiting.pk}/",
        "lobby": "/ws/lobby/",
        "personal": "/ws/me/",
        "quick play": "/ws/quickplay/",
        "tournament": f"/ws/tournaments/{tournament.pk}/",
    }

    async def open_each():
        # The game's owner is in this server before PostgreSQL ends its
        # connections (taking the game over is not what is tested here).
        socket = await opened(f"{ws}{paths['game']}", url, alice.session_key)
        assert await answers_a_ping(socket)
        await socket.close()
        await db_call(role.refuse)
        codes = {
            kind: await refusal(f"{ws}{path}", url, alice.session_key)
            for kind, path in paths.items()
        }
        await db_call(role.admit)
        reopens = {
            kind: await reopened(f"{ws}{path}", url, alice.session_key)
            for kind, path in paths.items()
        }
        return codes, reopens

    codes, reopens = asyncio.run(open_each())
    server.stop()
    log = server.log_path.read_text()
    assert codes == dict.fromkeys(paths, CLOSE_UNAVAILABLE), codes
    assert CLOSE_UNAVAILABLE in promises().at_connection
    for path in paths.values():
        template = path.replace(str(game.pk), "<id>").replace(str(waiting.pk), "<id>")
        template = template.replace(str(tournament.pk), "<id>")
        assert CLOSE_UNAVAILABLE in promises().sockets[template][0], template
        assert f"socket {path}: closed with 4503, the database is unavailable" in log
    assert reopens == dict.fromkeys(paths, True), reopens
    for unhandled in ("Exception in ASGI application", "Traceback"):
        assert unhandled not in log, log


@pytest.mark.timeout(180)
def test_quick_play_answers_every_ping_while_the_database_refuses(
    own_servers, people, role
):
    _, url = own_servers("quick-play", env={"DATABASE_URL": role.url})
    (alice,) = people(1)
    quick_play.pool_join(user=alice.user, category="joker", stake=0, bots=False)
    joined = PoolEntry.objects.get(user=alice.user).seen_at
    ws = url.replace("http", "ws", 1)

    async def ping_while_refused():
        socket = await opened(f"{ws}/ws/quickplay/", url, alice.session_key)
        try:
            assert await answers_a_ping(socket)
            await db_call(role.refuse)
            refused_at = timezone.now()
            statuses = []
            for _ in range(PINGS):
                await socket.send(json.dumps({"type": "ping"}))
                statuses.append(json.loads(await asyncio.wait_for(socket.recv(), 60)))
            await db_call(role.admit)
            return refused_at, statuses
        finally:
            await socket.close()

    refused_at, statuses = asyncio.run(ping_while_refused())
    assert [status["type"] for status in statuses] == ["status"] * PINGS
    assert all(status["waiting"] for status in statuses), statuses
    assert all(status["players"] == 1 for status in statuses), statuses
    # The pings heard meanwhile keep the player in the pool: the tick takes
    # them into account.
    quick_play.match_tick(now=timezone.now())
    seen = PoolEntry.objects.get(user=alice.user).seen_at
    assert seen >= refused_at > joined
