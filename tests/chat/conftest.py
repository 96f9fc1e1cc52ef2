"""Fixtures for the chat's tests: sockets at tables and in the lobby."""

import pytest
import pytest_asyncio
from channels.layers import channel_layers

from games.live.hall import stop_hall
from tests.chat.helpers import open_at


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Every test its own channel layer (tests/games/conftest.py says why)."""
    channel_layers.backends.clear()


@pytest_asyncio.fixture
async def sockets():
    """Open sockets (``open_at``); all are closed when the test ends, and the
    test's game owners stopped."""
    opened = []

    async def open_(path, user=None):
        socket = await open_at(path, user)
        opened.append(socket)
        return socket

    yield open_
    for socket in opened:
        await socket.close()
    await stop_hall()
