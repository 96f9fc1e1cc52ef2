"""A seated player's table socket closing while Redis is down still closes
cleanly and still lets their open rematch offer lapse (games.rematch_socket).

Real processes: a uvicorn server on a Redis of this test's own, stopped
while the socket is open."""

from __future__ import annotations

import asyncio

import pytest

from games import services
from games.models import Game, Rematch
from games.services import rematch as rematch_services
from tests.games.helpers import play_out
from tests.live.support import TableClient, wait_until

from .test_logout import private_redis  # noqa: F401


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_a_table_socket_closing_while_redis_is_down_lets_the_offer_lapse(
    private_redis,  # noqa: F811
    own_servers,
    people,
):
    # private_redis first: set up before the server, so stopped after it.
    server, url = own_servers("web", env={"REDIS_URL": private_redis.url})
    alice, bob = people(2)
    table = services.table_create(user=alice.user, profile="japanese", turn_seconds=120)
    services.seat_take(table_id=table.pk, user=bob.user, number=1)
    game = play_out(Game.objects.get(table=table).pk)
    rematch_services.rematch_agree(game_id=game.pk, user=alice.user)

    async def close_while_redis_is_down():
        async with TableClient(url, game.pk, alice.session_key) as client:
            while (await client.receive())["type"] != "rematch":
                pass
            private_redis.stop()

    asyncio.run(close_while_redis_is_down())
    offer = wait_until(
        lambda: Rematch.objects.filter(game=game, state=Rematch.State.LAPSED).first(),
        30,
        "the offer to lapse as its player left",
    )
    assert offer.reason == "left"
    server.stop()
    log = server.log_path.read_text()
    # Logged, handled errors (channels_redis's, the heartbeat's) are not
    # what this looks for: an exception nothing caught.
    for unhandled in ("Exception in ASGI application", "Exception in 'lifespan'"):
        assert unhandled not in log, log
