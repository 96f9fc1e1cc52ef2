"""A frame sent as the client closes is dropped: the ASGI server raises an
OSError for it (uvicorn's ``ClientDisconnected``), and the chat's work, done
beside the socket's reading, meets that more often than a handler did.
Nothing is logged as a failure: the ``websocket.disconnect`` that follows
ends the socket as usual."""

from __future__ import annotations

import logging
import time

import pytest
from uvicorn.protocols.utils import ClientDisconnected

from games.routing import TableSocket

pytestmark = pytest.mark.asyncio


async def client_gone(message):
    raise ClientDisconnected()


async def test_a_chat_message_for_a_client_that_has_gone_is_dropped_quietly(caplog):
    socket = TableSocket()
    socket.base_send = client_gone
    socket.chat_hidden_at = time.monotonic()  # whom it hides is fresh: no read
    message = {"id": 1, "author": {"id": 7, "name": "nino"}, "text": "hi"}
    with caplog.at_level(logging.ERROR):
        socket.chat_in_turn(lambda: socket._show(message))
        assert socket.chat_worker is not None
        await socket.chat_worker
        # The work is done and nothing waits for more.
        assert socket.chat_worker.done() and not socket.chat_work
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
