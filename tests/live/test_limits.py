"""The socket limits on the real server: uvicorn refuses an oversized frame
itself, and a flooding socket is closed while another table's socket on the
same server goes on being answered."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.exceptions import ConnectionClosed

from games import services
from games.models import Game

from .support import TableClient

pytestmark = [pytest.mark.timeout(60), pytest.mark.django_db(transaction=True)]


def a_game(first, second) -> Game:
    table = services.table_create(user=first.user, profile="japanese", turn_seconds=120)
    services.seat_take(table_id=table.pk, user=second.user, number=1)
    return Game.objects.get(table=table)


def test_the_server_refuses_a_frame_over_the_limit_before_reading_it(servers, people):
    alice, bob = people(2)
    game = a_game(alice, bob)

    async def send_too_much():
        async with TableClient(servers[0], game.pk, alice.session_key) as client:
            await client.ws.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await client.ws.recv()
            return closed.value.rcvd.code if closed.value.rcvd else None

    assert asyncio.run(send_too_much()) == 1009  # message too big


def test_a_flood_is_closed_and_another_table_is_still_answered(servers, people):
    alice, bob, carol, dan = people(4)
    flooded, other = a_game(alice, bob), a_game(carol, dan)

    async def flood_and_ping():
        async with (
            TableClient(servers[0], flooded.pk, alice.session_key) as flooder,
            TableClient(servers[0], other.pk, carol.session_key) as bystander,
        ):
            for _ in range(3000):
                await flooder.ws.send('{"type": "ping"}')
            codes = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    frame = json.loads(await flooder.ws.recv())
                    if frame["type"] == "error":
                        codes.append(frame["code"])
            await bystander.ws.send('{"type": "ping"}')
            while (await bystander.receive())["type"] != "pong":
                pass
            return closed.value.rcvd.code, codes

    code, errors = asyncio.run(flood_and_ping())
    assert code == 4429
    # Told at the start of each run of dropped messages (the bucket refills
    # a little between runs), and of nothing else.
    assert errors and set(errors) == {"rate_limited"}
