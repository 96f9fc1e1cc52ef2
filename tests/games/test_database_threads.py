"""The sockets' database work runs on threads kept for it
(``common.database_threads``), not on the one thread that every sync call
shares by default: while that thread is held (as a wait for a pooled
connection held it under load), a socket still opens, reads its game and
its player's friends, and a move is still answered."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.games.helpers import (
    SITE_HEADERS,
    Socket,
    action_message,
    first_legal,
    of_type,
    session_cookie,
    start_game,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def a_game_and_a_cookie():
    game = start_game("japanese", {"target": 11}, people=1, turn_seconds=120)
    user = game.table.seats.get(number=0).user
    return game, session_cookie(user)


class SharedThreadHeld:
    """Holds asgiref's one thread of thread-sensitive calls until the block
    ends (what a call waiting in the pool did to every call behind it)."""

    def __init__(self) -> None:
        self.held = threading.Event()
        self.release = threading.Event()
        self.task: asyncio.Future | None = None

    def _hold(self) -> None:
        self.held.set()
        self.release.wait(30)

    async def __aenter__(self) -> SharedThreadHeld:
        self.task = asyncio.ensure_future(sync_to_async(self._hold)())
        assert await asyncio.to_thread(self.held.wait, 5)
        return self

    async def __aexit__(self, *exc) -> None:
        self.release.set()
        assert self.task is not None
        await self.task


async def connect(path: str, cookie: bytes) -> Socket:
    headers = [*SITE_HEADERS, (b"cookie", cookie)]
    socket = Socket(WebsocketCommunicator(application, path, headers=headers))
    socket.connected, socket.close_code = await socket.comm.connect(timeout=5)
    return socket


async def test_sockets_open_and_play_while_the_shared_thread_is_held():
    game, cookie = await a_game_and_a_cookie()
    async with SharedThreadHeld():
        me = await connect("/ws/me/", cookie)
        table = await connect(f"/ws/games/{game.pk}/", cookie)
        try:
            assert me.connected and table.connected
            await me.receive_until(of_type("hello"))
            await table.receive_until(of_type("sync"))
            # Her turn (after the bot's move, if the bot begins), and a move.
            await table.receive_until(lambda _: bool(table.latest["view"].get("legal")))
            mine = table.latest
            await table.send(action_message(mine["version"], first_legal(mine["view"])))
            await table.receive_until(lambda f: f["type"] == "ack")
        finally:
            await table.close()
            await me.close()
