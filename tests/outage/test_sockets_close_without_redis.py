"""Every kind of socket closing while Redis is down closes cleanly: the
lobby's (with its chat), quick play's, a tournament's and the personal one
each leave their groups through ``UserSocketMixin.leave_group``, which lets
a group Redis cannot be told of expire by itself instead of raising out of
``disconnect`` (an unhandled exception in the server's log).

Real processes: a uvicorn server on a Redis of this test's own, stopped
while the sockets are open."""

from __future__ import annotations

import asyncio

import pytest

from chat.selectors import LOBBY
from games.services.notify import LOBBY_GROUP
from matchmaking import notify as quick_play
from social.notify import me_group
from tests.live.test_user_messages import answers_a_ping, opened
from tests.tournaments.support import make_tournament
from tournaments.notify import tournament_group

from .test_logout import private_redis  # noqa: F401


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_sockets_closing_while_redis_is_down_close_cleanly(
    private_redis,  # noqa: F811
    own_servers,
    people,
):
    # private_redis first: set up before the server, so stopped after it.
    server, url = own_servers("web", env={"REDIS_URL": private_redis.url})
    (alice,) = people(1)
    tournament = make_tournament()
    ws = url.replace("http", "ws", 1)
    paths = {
        "lobby": "/ws/lobby/",
        "quick play": "/ws/quickplay/",
        "tournament": f"/ws/tournaments/{tournament.pk}/",
        "personal": "/ws/me/",
    }

    async def close_while_redis_is_down():
        sockets = {
            kind: await opened(f"{ws}{path}", url, alice.session_key)
            for kind, path in paths.items()
        }
        for kind, socket in sockets.items():
            assert await answers_a_ping(socket), f"{kind} did not open"
        private_redis.stop()
        for socket in sockets.values():
            await socket.close()
        # The server's side of each close has run once the server answers
        # again: give the disconnects their time.
        await asyncio.sleep(5)

    asyncio.run(close_while_redis_is_down())
    server.stop()
    log = server.log_path.read_text()
    # Logged, handled errors (channels_redis's, the heartbeat's) are not
    # what this looks for: an exception nothing caught.
    for unhandled in ("Exception in ASGI application", "Exception in 'lifespan'"):
        assert unhandled not in log, log
    # Each socket's close ran, and left each of its own groups as far as it
    # could.
    groups = [LOBBY_GROUP, LOBBY.group, quick_play.user_group(alice.user.pk)]
    groups += [tournament_group(tournament.pk), me_group(alice.user.pk)]
    for group in groups:
        assert f"Redis not told it left {group}\n" in log, log
