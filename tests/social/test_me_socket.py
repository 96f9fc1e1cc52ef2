"""The personal socket /ws/me/, through the whole ASGI stack: presence
comes and goes with it (and runs out when it dies without a close), the
news reaches it live, an anonymous visitor is refused, and any frame gets
an answer."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games import socket_limits
from social import presence, services
from tests.factories import UserFactory
from tests.games.helpers import SITE_HEADERS, session_cookie
from tests.games.test_odd_frames import ODD_FRAMES
from tests.social.helpers import befriend, open_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


class Me:
    """A /ws/me/ socket of a signed-in player (or of a visitor)."""

    def __init__(self, comm: WebsocketCommunicator):
        self.comm = comm
        self.open = False

    @classmethod
    async def connect(cls, user=None) -> Me:
        headers = list(SITE_HEADERS)
        if user is not None:
            headers.append((b"cookie", await db(session_cookie)(user)))
        me = cls(WebsocketCommunicator(application, "/ws/me/", headers=headers))
        me.open, _ = await me.comm.connect(timeout=5)
        return me

    async def receive(self, timeout: float = 5) -> dict:
        return json.loads(await self.comm.receive_from(timeout))

    async def receive_until(self, kind: str, timeout: float = 5) -> dict:
        while True:
            frame = await self.receive(timeout)
            if frame["type"] == kind:
                return frame

    async def close(self):
        if self.open:
            self.open = False
            await self.comm.disconnect(timeout=5)


@pytest_asyncio.fixture
async def sockets():
    opened: list[Me] = []

    async def connect(user=None) -> Me:
        me = await Me.connect(user)
        opened.append(me)
        return me

    yield connect
    for me in opened:
        await me.close()


def online(user) -> bool:
    return user.pk in presence.online_ids([user.pk], now=time.time())


@db
def friends():
    nino, giorgi = UserFactory.create_batch(2)
    befriend(nino, giorgi)
    return nino, giorgi


async def test_an_anonymous_visitor_is_refused_with_4401(sockets):
    me = await sockets()
    assert me.open
    message = await me.comm.receive_output(5)
    assert message == {
        "type": "websocket.close",
        "code": 4401,
        "reason": "not signed in",
    }


async def test_a_player_is_online_while_a_socket_is_open_and_friends_hear_of_it(
    sockets,
):
    nino, giorgi = await friends()
    theirs = await sockets(giorgi)
    assert (await theirs.receive())["type"] == "hello"
    assert not online(nino)

    first = await sockets(nino)
    assert await first.receive() == {"type": "hello", "invitations": []}
    assert online(nino)
    assert await theirs.receive() == {"type": "friends"}

    # A second tab: still one online player, and nobody is told again.
    second = await sockets(nino)
    await second.receive_until("hello")
    await first.close()
    assert online(nino)
    assert await theirs.comm.receive_nothing(timeout=0.3)

    await second.close()
    assert not online(nino)
    assert await theirs.receive() == {"type": "friends"}


async def test_a_socket_that_dies_without_a_close_runs_out(sockets, settings):
    settings.PULKA_SOCKET_SILENCE_SECONDS = 1
    nino, giorgi = await friends()
    theirs = await sockets(giorgi)
    await theirs.receive_until("hello")
    mine = await sockets(nino)
    await mine.receive_until("hello")
    await theirs.receive_until("friends")
    assert online(nino)

    # Nothing heard from it (a killed browser, a dead server): no close
    # ever comes, and the entry runs out by itself.
    await asyncio.sleep(1.3)
    assert not online(nino)

    # A ping after the silence is the player back again.
    await mine.comm.send_to(text_data='{"type": "ping"}')
    assert await mine.receive() == {"type": "pong"}
    assert online(nino)
    assert await theirs.receive() == {"type": "friends"}


async def test_pings_keep_a_player_online_past_the_silence_limit(sockets, settings):
    settings.PULKA_SOCKET_SILENCE_SECONDS = 1
    nino = await db(UserFactory)()
    mine = await sockets(nino)
    await mine.receive_until("hello")
    for _ in range(4):
        await asyncio.sleep(0.4)
        await mine.comm.send_to(text_data='{"type": "ping"}')
        assert await mine.receive() == {"type": "pong"}
        assert online(nino)


async def test_an_invitation_reaches_every_page_live_and_its_answer_the_inviter(
    sockets,
):
    nino, giorgi = await friends()
    table = await db(open_table)(nino)
    inviter = await sockets(nino)
    await inviter.receive_until("hello")
    pages = [await sockets(giorgi), await sockets(giorgi)]
    for page in pages:
        await page.receive_until("hello")

    invitation = await db(services.invitation_create)(
        inviter_id=nino.pk, invitee_id=giorgi.pk, table_id=table.pk
    )
    for page in pages:
        notice = (await page.receive_until("invitation"))["invitation"]
        assert notice["id"] == invitation.pk
        assert notice["table"] == table.pk
        assert notice["url"] == f"/tables/{table.pk}/"
        assert notice["from"]["username"] == nino.username

    # A page opened later is told in its hello.
    later = await sockets(giorgi)
    assert [i["id"] for i in (await later.receive())["invitations"]] == [invitation.pk]

    await db(services.invitation_accept)(invitee=giorgi, invitation_id=invitation.pk)
    answered = await inviter.receive_until("invitation_answered")
    assert answered["answer"] == "accepted"
    assert answered["by"]["username"] == giorgi.username
    for page in pages:
        assert await page.receive_until("invitation_over") == {
            "type": "invitation_over",
            "invitation": invitation.pk,
        }


async def test_a_friend_request_reaches_the_player_live(sockets):
    nino, giorgi = await db(UserFactory.create_batch)(2)
    theirs = await sockets(giorgi)
    await theirs.receive_until("hello")
    await db(services.friend_request_create)(sender_id=nino.pk, receiver_id=giorgi.pk)
    request = await theirs.receive_until("friend_request")
    assert request["from"]["username"] == nino.username


@pytest.mark.parametrize("frame", ODD_FRAMES.values(), ids=ODD_FRAMES.keys())
async def test_any_frame_is_answered_and_the_socket_stays_open(sockets, frame):
    mine = await sockets(await db(UserFactory)())
    await mine.receive_until("hello")
    if isinstance(frame, bytes):
        await mine.comm.send_to(bytes_data=frame)
    else:
        await mine.comm.send_to(text_data=frame)
    answer = await mine.receive()
    assert answer["type"] == "error"
    assert answer["code"] in {"too_large", "bad_json", "bad_message", "unknown_type"}
    await mine.comm.send_to(text_data='{"type": "ping"}')
    assert await mine.receive() == {"type": "pong"}


async def test_personal_sockets_are_counted_apart_from_the_pages_own(sockets, settings):
    settings.PULKA_SOCKETS_PER_USER = 2
    nino = await db(UserFactory)()
    first = await sockets(nino)
    await first.receive_until("hello")
    for _ in range(2):
        await (await sockets(nino)).receive_until("hello")
    # The third personal socket closed the first, as a ninth page would...
    message = await first.comm.receive_output(5)
    assert (message["type"], message["code"]) == ("websocket.close", 4409)
    # ... and took no place among the sockets of tables and lobbies.
    assert socket_limits._redis().zcard(socket_limits._key(nino.pk)) == 0
