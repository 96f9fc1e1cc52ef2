"""A first game over real WebSocket connections (in-process ASGI app)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from config.asgi import application
from games import services
from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import SITE_HEADERS


def communicator_for(user, game_id):
    comm = WebsocketCommunicator(
        application,
        f"/ws/games/{game_id}/",
        headers=SITE_HEADERS,
    )
    comm.scope["user"] = user
    return comm


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_seated_player_gets_a_sync_and_can_bid():
    user = await database_sync_to_async(UserFactory)()

    def setup():
        table = services.table_create(user=user, profile="japanese")
        services.seat_add_bot(table_id=table.pk, user=user, number=1, bot="autopilot")
        return Game.objects.get(table=table)

    game = await database_sync_to_async(setup)()
    comm = communicator_for(user, game.pk)
    connected, _ = await comm.connect()
    assert connected
    sync = await comm.receive_json_from()
    assert sync["type"] == "sync" and sync["you"] == 0
    assert get_user_model()  # the app registry is ready
    await comm.disconnect()
