"""A logout while Redis is down: the session ends all the same, and the
sockets opened in it can do nothing more.

Real processes: a uvicorn server on a Redis of this test's own, which the
test stops and starts again (the shared one is left alone), and real
WebSockets.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

import pytest
import requests
from django.contrib.sessions.models import Session
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.models import Game
from tests.live.support import TableClient, db_call
from tests.live.test_owners import event_rows, new_match
from tests.processes import PrivateRedis

# Long enough that no turn runs out while the test waits.
TURN_SECONDS = 120


@pytest.fixture
def private_redis(log_dir):
    # A short path: a Unix socket's is at most 107 bytes.
    directory = Path(tempfile.mkdtemp(prefix="pulka-redis-"))
    server = PrivateRedis(directory, log_dir)
    server.start()
    yield server
    server.stop()
    shutil.rmtree(directory, ignore_errors=True)


def logout_form(url: str, session_key: str):
    """A browser signed in with ``session_key``, and the logout form's post
    as it sends it (its CSRF token read from the profile page now, while
    everything is up): call it for the answer, not followed."""
    browser = requests.Session()
    browser.cookies.set("sessionid", session_key)
    assert browser.get(f"{url}/accounts/profile/", allow_redirects=False).ok
    token = browser.cookies["csrftoken"]
    return browser, lambda: browser.post(
        f"{url}/accounts/logout/",
        data={"csrfmiddlewaretoken": token},
        allow_redirects=False,
    )


async def closed(ws, timeout: float) -> tuple[int, str]:
    """The close code and reason the server sends within ``timeout``,
    skipping the messages before it."""
    try:
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()
    except ConnectionClosed:
        return ws.close_code, ws.close_reason


@pytest.mark.timeout(150)
@pytest.mark.django_db(transaction=True)
def test_a_logout_while_redis_is_down_ends_the_session_and_its_sockets(
    private_redis, own_servers, people
):
    # private_redis first: set up before the server, so stopped after it.
    _, url = own_servers("web", env={"REDIS_URL": private_redis.url})
    alice, bob = people(2)
    game = new_match(alice, bob, turn_seconds=TURN_SECONDS)
    mover = [alice, bob][game.engine_state().turn]
    browser, post_logout = logout_form(url, mover.session_key)
    cookie = {"Cookie": f"sessionid={mover.session_key}"}
    lobby_url = f"{url.replace('http', 'ws', 1)}/ws/lobby/"

    async def scenario():
        async with (
            TableClient(url, game.pk, mover.session_key) as table,
            connect(lobby_url, origin=url, additional_headers=cookie) as lobby,
        ):
            assert table.my_turn()
            version = table.snapshot["version"]
            table.pinger.cancel()  # nothing but the action below is sent
            private_redis.stop()

            answer = await asyncio.to_thread(post_logout)
            assert answer.status_code == 302, answer.text[:2000]
            assert answer.headers["Location"] == "/"
            page = await asyncio.to_thread(
                browser.get, f"{url}/accounts/profile/", allow_redirects=False
            )
            assert page.status_code == 302
            assert page.headers["Location"].startswith("/accounts/login/")

            # The socket opened in that session, never told of the logout,
            # tries a move: refused and closed, nothing played.
            await table.act()
            assert await closed(table.ws, timeout=10) == (4401, "signed out")
            assert await db_call(lambda: Game.objects.get(pk=game.pk).version) == (
                version
            )

            # Redis back: the notice the logout could not send reaches the
            # session's other socket, which closes.
            private_redis.start()
            assert await closed(lobby, timeout=30) == (4401, "signed out")

    asyncio.run(scenario())
    assert not Session.objects.filter(session_key=mover.session_key).exists()
    # Nothing left behind: no move of anybody's stored, the server whole.
    assert [row for row in event_rows(game.pk) if row[1] is not None] == []
    health = requests.get(f"{url}/health/", timeout=10)
    assert health.status_code == 200, health.text
