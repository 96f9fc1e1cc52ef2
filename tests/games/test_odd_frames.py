"""Whatever frame a client sends, the lobby, tournament and quick-play
sockets answer it as docs/protocol.md says and stay open: text that is not
JSON, a binary frame, JSON that is not an object, numbers too large for any
type, brackets nested past every parser's depth. (The table's socket is held
to its error codes in tests/games/test_consumer.py.)"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.factories import UserFactory
from tests.games.helpers import SITE_HEADERS, session_cookie
from tests.tournaments.support import make_tournament

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


# None of them a ping; each within the 4096 bytes the server lets through.
ODD_FRAMES = {
    "not JSON": "{not json",
    "binary": b"\x00\xff\x81binary",
    "binary JSON": b'{"type": "hello"}',
    "a list": '["ping"]',
    "a number": "42",
    "a string": '"ping"',
    "null": "null",
    "4000 digits": "9" * 4000,
    "past a double": '{"type": 1e400}',
    "past 64 bits": '{"type": 123456789012345678901234567890}',
    "2000 brackets deep": "[" * 2000 + "]" * 2000,
    "1000 objects deep": '{"a":' * 1000 + "1" + "}" * 1000,
    "a type that is not text": '{"type": ["ping"]}',
}


async def opened(path: str, user=None) -> WebsocketCommunicator:
    headers = list(SITE_HEADERS)
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect(timeout=5)
    assert connected
    return socket


async def answers(socket: WebsocketCommunicator, frame: str | bytes) -> dict:
    if isinstance(frame, bytes):
        await socket.send_to(bytes_data=frame)
    else:
        await socket.send_to(text_data=frame)
    message = await socket.receive_output(timeout=5)
    assert message["type"] == "websocket.send", message
    return json.loads(message["text"])


@pytest.mark.parametrize("frame", ODD_FRAMES.values(), ids=ODD_FRAMES.keys())
async def test_the_lobby_socket_answers_every_frame_with_a_pong(frame):
    socket = await opened("/ws/lobby/")
    try:
        assert await answers(socket, frame) == {"type": "pong"}
        assert await answers(socket, '{"type": "ping"}') == {"type": "pong"}
    finally:
        await socket.disconnect()


@pytest.mark.parametrize("frame", ODD_FRAMES.values(), ids=ODD_FRAMES.keys())
async def test_a_tournament_socket_answers_every_frame_with_a_pong(frame):
    tournament = await database_sync_to_async(make_tournament)("japanese")
    socket = await opened(f"/ws/tournaments/{tournament.pk}/")
    try:
        assert await answers(socket, frame) == {"type": "pong"}
        assert await answers(socket, '{"type": "ping"}') == {"type": "pong"}
    finally:
        await socket.disconnect()


@pytest.mark.parametrize("frame", ODD_FRAMES.values(), ids=ODD_FRAMES.keys())
async def test_the_quickplay_socket_answers_anything_but_a_ping_with_bad_message(
    frame,
):
    socket = await opened("/ws/quickplay/", await database_sync_to_async(UserFactory)())
    try:
        error = await answers(socket, frame)
        # The one error message of every socket (common.messages.Error).
        assert (error["type"], error["id"], error["code"]) == (
            "error",
            None,
            "bad_message",
        )
        assert error["message"]
        status = await answers(socket, '{"type": "ping"}')
        assert status["type"] == "status" and status["waiting"] is False
    finally:
        await socket.disconnect()
