"""The tournament page's WebSocket: anyone may watch, and every change that
commits (a registration, a round, a cancellation) reaches the page."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from config.asgi import application
from tests.games.helpers import SITE_HEADERS, session_cookie
from tournaments import services

from .support import make_tournament, players, register_all, start_now

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A channel layer of the test's own event loop (see tests/games)."""
    channel_layers.backends.clear()


def socket_for(tournament_id: int, headers=()) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application,
        f"/ws/tournaments/{tournament_id}/",
        headers=[*SITE_HEADERS, *headers],
    )


async def test_a_registration_through_the_page_is_announced():
    tournament = await database_sync_to_async(make_tournament)("japanese")
    (alice,) = await database_sync_to_async(players)(1)
    socket = socket_for(tournament.pk)
    connected, _ = await socket.connect()
    assert connected
    try:

        def register():
            client = Client()
            client.force_login(alice)
            return client.post(reverse("tournaments:register", args=[tournament.pk]))

        response = await database_sync_to_async(register)()
        assert response.status_code == 302

        assert await socket.receive_json_from(timeout=5) == {
            "type": "tournament",
            "what": "registration",
        }
        assert await socket.receive_nothing(timeout=0.2)
    finally:
        await socket.disconnect()


async def test_a_refused_registration_is_not_announced():
    tournament = await database_sync_to_async(make_tournament)(
        "japanese", entry_fee=100
    )
    (poor,) = await database_sync_to_async(players)(1, coins_each=10)
    socket = socket_for(tournament.pk)
    connected, _ = await socket.connect()
    assert connected
    try:

        def register():
            client = Client()
            client.force_login(poor)
            return client.post(reverse("tournaments:register", args=[tournament.pk]))

        await database_sync_to_async(register)()

        assert await socket.receive_nothing(timeout=0.3)
    finally:
        await socket.disconnect()


async def test_a_signed_in_watcher_hears_the_start_and_the_cancellation():
    users = await database_sync_to_async(players)(2)
    tournament = await database_sync_to_async(make_tournament)("japanese")
    await database_sync_to_async(register_all)(tournament, users)
    cookie = await database_sync_to_async(session_cookie)(users[0])
    socket = socket_for(tournament.pk, [(b"cookie", cookie)])
    connected, _ = await socket.connect()
    assert connected
    try:
        assert await database_sync_to_async(start_now)(tournament) == "started"
        assert await socket.receive_json_from(timeout=5) == {
            "type": "tournament",
            "what": "round",
        }

        await database_sync_to_async(services.tournament_cancel)(
            tournament_id=tournament.pk, reason="test"
        )
        assert await socket.receive_json_from(timeout=5) == {
            "type": "tournament",
            "what": "cancelled",
        }
    finally:
        await socket.disconnect()


async def test_pings_are_answered():
    tournament = await database_sync_to_async(make_tournament)("japanese")
    socket = socket_for(tournament.pk)
    connected, _ = await socket.connect()
    assert connected
    try:
        await socket.send_to(text_data='{"type": "ping"}')
        assert await socket.receive_json_from(timeout=5) == {"type": "pong"}
        # Not JSON: answered all the same, and the socket stays open.
        await socket.send_to(text_data="{oops")
        assert await socket.receive_json_from(timeout=5) == {"type": "pong"}
    finally:
        await socket.disconnect()


async def test_an_unknown_tournament_is_refused():
    socket = socket_for(987654)

    connected, _ = await socket.connect()

    # Accepted, then closed with the code: a browser reads no code from a
    # handshake refused.
    assert connected
    close = await socket.receive_output(timeout=5)
    assert (close["type"], close["code"]) == ("websocket.close", 4404)
    await socket.disconnect()


async def test_a_foreign_origin_is_refused():
    tournament = await database_sync_to_async(make_tournament)("japanese")
    socket = WebsocketCommunicator(
        application,
        f"/ws/tournaments/{tournament.pk}/",
        headers=[(b"host", b"localhost"), (b"origin", b"https://evil.example")],
    )

    connected, _ = await socket.connect()

    assert not connected
    await socket.disconnect()
