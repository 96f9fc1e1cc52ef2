"""Fixtures for live-play tests: games under way and WebSocket clients."""

import pytest
import pytest_asyncio
from channels.layers import channel_layers

from games.live.hall import stop_hall
from tests.games.helpers import open_socket, start_game


@pytest.fixture
def japanese(db):
    """A Japanese Joker match to 11 between two people, just dealt."""
    return start_game("japanese", {"target": 11}, people=2)


@pytest.fixture
def club(db):
    """A 4-person Georgian club game of nines, just dealt."""
    return start_game("georgian-club", {"schedule": "nines"}, people=4)


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Give every test its own channel layer. channels_redis keeps asyncio
    locks that belong to the event loop first waiting on them, and each test
    runs in a new loop; a server has one loop per process."""
    channel_layers.backends.clear()


@pytest_asyncio.fixture
async def connect():
    """Open WebSocket connections (see ``open_socket``); all are closed when
    the test ends, so a failing test leaves no consumer running."""
    opened = []

    async def connect_(game_id, user=None, **kwargs):
        socket = await open_socket(game_id, user, **kwargs)
        opened.append(socket)
        return socket

    yield connect_
    for socket in opened:
        await socket.close()
    # The test's event loop ends with the test: so does its hall (and its
    # leases and database connections).
    await stop_hall()
