"""The sockets' database work runs on threads kept for it
(``common.database_threads``), not on the one thread that every sync call
shares by default: while that thread is held (as a wait for a pooled
connection held it under load), a socket still opens, reads its game and
its player's friends, and a move is still answered. And a socket's chat
waits for the database beside the socket's reading, not in it: its pings
are answered meanwhile."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from common.database_threads import database_threads
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


class ThreadsHeld:
    """Holds ``count`` threads of ``executor`` (None: asgiref's one thread
    of thread-sensitive calls) until the block ends, as calls waiting for a
    pooled connection held them under load."""

    def __init__(self, executor=None, count: int = 1) -> None:
        self.executor, self.count = executor, count
        self.held = threading.Semaphore(0)
        self.release = threading.Event()
        self.tasks: list[asyncio.Future] = []

    def _hold(self) -> None:
        self.held.release()
        self.release.wait(30)

    async def __aenter__(self) -> ThreadsHeld:
        for _ in range(self.count):
            if self.executor is None:
                hold = sync_to_async(self._hold)
            else:
                hold = sync_to_async(
                    self._hold, thread_sensitive=False, executor=self.executor
                )
            self.tasks.append(asyncio.ensure_future(hold()))
        for _ in range(self.count):
            assert await asyncio.to_thread(self.held.acquire, timeout=5)
        return self

    async def __aexit__(self, *exc) -> None:
        self.release.set()
        await asyncio.gather(*self.tasks)


async def connect(path: str, cookie: bytes) -> Socket:
    headers = [*SITE_HEADERS, (b"cookie", cookie)]
    socket = Socket(WebsocketCommunicator(application, path, headers=headers))
    socket.connected, socket.close_code = await socket.comm.connect(timeout=5)
    return socket


async def test_sockets_open_and_play_while_the_shared_thread_is_held():
    game, cookie = await a_game_and_a_cookie()
    async with ThreadsHeld():
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


async def test_a_ping_is_answered_while_the_chat_waits_for_the_database():
    game, cookie = await a_game_and_a_cookie()
    table = await connect(f"/ws/games/{game.pk}/", cookie)
    try:
        await table.receive_until(of_type("sync"))
        threads = database_threads()
        async with ThreadsHeld(threads, threads._max_workers):
            await table.send({"type": "chat", "id": "c1", "text": "anyone here?"})
            await table.send({"type": "ping"})
            await table.receive_until(of_type("pong"))
        # Posted once the database answers, and shown in the room.
        said = await table.receive_until(of_type("chat"))
        assert said["message"]["text"] == "anyone here?"
    finally:
        await table.close()
