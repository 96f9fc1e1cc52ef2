"""PostgreSQL refusing the web process's connections in the middle of a
game: the sockets go on answering their pings, a move is answered
``unavailable`` and a page 503, and all is well again once PostgreSQL takes
connections again.

Real processes: a uvicorn server connecting as a role of this test's own
(``tests.database_role``), whose connections PostgreSQL ends and then
refuses, as it refuses a server out of ``max_connections`` ("too many
connections"), and real WebSockets pinging as the pages do.
"""

from __future__ import annotations

import asyncio

import pytest
import requests

from games.models import Game
from tests.database_role import DatabaseRole
from tests.live.support import SOCKET_SILENCE_SECONDS, TableClient, db_call
from tests.live.test_owners import new_match

# Long enough that no turn runs out while the test waits.
TURN_SECONDS = 120


@pytest.fixture
def role(transactional_db):
    with DatabaseRole() as role:
        yield role


def pongs(client: TableClient) -> int:
    return sum(message["type"] == "pong" for message in client.messages)


async def ponged(client: TableClient) -> None:
    heard = pongs(client)
    await client.send({"type": "ping"})
    while pongs(client) == heard:
        await client.receive()


async def listen(client: TableClient, seconds: float) -> None:
    """Take the socket's messages for ``seconds``; a close raises."""
    loop = asyncio.get_running_loop()
    limit = loop.time() + seconds
    while (left := limit - loop.time()) > 0:
        try:
            await client.receive(timeout=left)
        except TimeoutError:
            return


async def answer_to(client: TableClient, client_id: str, others, seconds=60):
    """The ack or error that answers the move ``client_id``, the other
    sockets' messages taken meanwhile (each must stay open)."""
    listening = [asyncio.ensure_future(listen(other, seconds)) for other in others]
    try:
        loop = asyncio.get_running_loop()
        limit = loop.time() + seconds
        while True:
            if client_id in client.acks:
                return client.acks.pop(client_id)
            for error in client.errors:
                if error["id"] == client_id:
                    client.errors.remove(error)
                    return error
            await client.receive(timeout=limit - loop.time())
    finally:
        for task in listening:
            task.cancel()
        for task in listening:
            try:
                await task
            except asyncio.CancelledError:
                pass


def get(url: str, session_key: str) -> requests.Response:
    return requests.get(
        url, cookies={"sessionid": session_key}, allow_redirects=False, timeout=60
    )


@pytest.mark.timeout(180)
def test_sockets_keep_answering_while_the_database_refuses_connections(
    own_servers, worker, people, role
):
    _, url = own_servers("refused", env={"DATABASE_URL": role.url})
    alice, bob = people(2)
    game = new_match(alice, bob, turn_seconds=TURN_SECONDS)

    async def scenario():
        async with (
            TableClient(url, game.pk, alice.session_key) as a,
            TableClient(url, game.pk, bob.session_key) as b,
        ):
            # A pong comes once the socket's opening is done (a socket
            # reads its frames after it), its reads of the database too.
            await asyncio.gather(ponged(a), ponged(b))
            while not (a.my_turn() or b.my_turn()):
                await asyncio.gather(listen(a, 0.5), listen(b, 0.5))
            mover, other = (a, b) if a.my_turn() else (b, a)

            await db_call(role.refuse)
            # Sent twice: the first may meet a connection PostgreSQL just
            # ended, the second waits for a new one, which is refused.
            for _ in range(2):
                move = await mover.act()
                answer = await answer_to(mover, move, [other])
                assert answer["type"] == "error"
                assert answer["code"] == "unavailable"
                mover.acted_on = None  # sent again, same id
            # Past the silence limit several times over, both sockets are
            # answered and neither is closed (``listen`` raises on a close).
            heard = pongs(mover), pongs(other)
            await asyncio.gather(
                listen(mover, 3 * SOCKET_SILENCE_SECONDS),
                listen(other, 3 * SOCKET_SILENCE_SECONDS),
            )
            assert pongs(mover) > heard[0] and pongs(other) > heard[1]

            page = await asyncio.to_thread(get, f"{url}/lobby/", alice.session_key)
            assert page.status_code == 503
            api = await asyncio.to_thread(get, f"{url}/api/v1/me/", alice.session_key)
            assert api.status_code == 503
            assert api.headers["Content-Type"] == "application/json"
            assert api.json()["code"] == "unavailable" and api.json()["detail"]
            assert int(api.headers["Retry-After"]) > 0

            # PostgreSQL takes connections again: the pools get theirs back
            # as they try again (psycopg_pool's backoff), meanwhile the move
            # is refused as before, and then played once.
            await db_call(role.admit)
            answers = []
            while not answers or answers[-1]["type"] != "ack":
                assert len(answers) < 30, answers
                mover.acted_on = None
                move = await mover.act()
                answers.append(await answer_to(mover, move, [other]))
                assert answers[-1]["type"] == "ack" or (
                    answers[-1]["code"] == "unavailable"
                ), answers
            statuses = []
            while not statuses or statuses[-1] != 200:
                assert len(statuses) < 30, statuses
                page = await asyncio.to_thread(get, f"{url}/lobby/", alice.session_key)
                statuses.append(page.status_code)
                assert statuses[-1] in (200, 503), statuses
            return answers[-1], move

    answer, move = asyncio.run(scenario())
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.events.filter(client_id=move).count() == 1
