"""Practice bots play through the worker; their moves reach the socket."""

from __future__ import annotations

import asyncio

import pytest

from games import services
from games.models import Game, GameEvent

from .support import TableClient, wait_all_disconnected


def all_bid(client: TableClient) -> bool:
    view = client.snapshot["view"]
    return view["phase"] != "bid" or None not in view["bids"]


@pytest.mark.timeout(90)
@pytest.mark.django_db(transaction=True)
def test_practice_bots_bid_after_the_person(servers, worker, people, first_dealer):
    (alice,) = people(1)
    first_dealer(3)  # Alice, at seat 0, bids first; the bots follow her
    table = services.table_create(
        user=alice.user, profile="georgian-club", turn_seconds=120
    )
    for number in (1, 2, 3):
        services.seat_add_bot(table_id=table.pk, user=alice.user, number=number)
    game = Game.objects.get(table=table)

    async def bid_and_watch():
        async with TableClient(servers[0], game.pk, alice.session_key) as a:
            assert a.my_turn() and a.snapshot["view"]["phase"] == "bid"
            assert a.snapshot["view"]["bids"] == [None] * 4
            client_id = await a.act()
            await a.receive_until(lambda c: client_id in c.acks, timeout=10)
            await a.receive_until(all_bid, timeout=30)
            return a

    a = asyncio.run(bid_and_watch())
    wait_all_disconnected(game.pk)

    assert not a.errors
    # Her bid, then each bot's in an update of its own, in turn.
    bids = [
        [event["seat"] for step in update["events"] for event in step["events"]]
        for update in a.updates
        if any(
            event["type"] == "bid"
            for step in update["events"]
            for event in step["events"]
        )
    ]
    assert bids == [[0], [1], [2], [3]]
    bots = GameEvent.objects.filter(game=game, kind="action", seat__in=[1, 2, 3])
    assert {event.cause for event in bots} == {GameEvent.Cause.BOT}
    assert len(a.snapshot["view"]["bids"]) == 4
