"""Disconnect graces are stored with the game, as its deadline is: the owner
keeps each on its event loop, and a process that takes the game over finds
them in the database (the fault suite kills real processes:
tests/faults/test_graces.py)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.live.hall import stop_hall
from games.models import Game, GameEvent, Seat
from tests.games.helpers import all_connected, of_type, start_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@db
def new_match():
    table, users = start_table("japanese", {"target": 11}, people=2)
    return Game.objects.get(table=table), users


@db
def presence(game):
    game.refresh_from_db()
    return game.presence


@db
def set_presence(game, value):
    Game.objects.filter(pk=game.pk).update(presence=value)


@db
def ending(game):
    game.refresh_from_db()
    last = GameEvent.objects.filter(game=game).order_by("version").last()
    left = list(
        Seat.objects.filter(table_id=game.table_id, left=True).values_list(
            "number", flat=True
        )
    )
    return game.status, last.seat, last.cause, left


async def wait_for(predicate, timeout: float = 10):
    limit = asyncio.get_running_loop().time() + timeout
    while not await predicate():
        assert asyncio.get_running_loop().time() < limit, "timed out"
        await asyncio.sleep(0.05)


async def test_presence_is_written_as_seats_come_and_go(connect, settings):
    settings.PULKA_DISCONNECT_GRACE_SECONDS = 60
    game, users = await new_match()
    assert await presence(game) == {}
    first = await connect(game.pk, users[0])
    await first.receive_until(of_type("presence"))
    await wait_for(lambda: _equals(presence(game), {"0": None}))
    second = await connect(game.pk, users[1])
    await first.receive_until(all_connected)
    await wait_for(lambda: _equals(presence(game), {"0": None, "1": None}))

    closed_at = timezone.now()
    await second.close()
    await wait_for(lambda: _has_grace(presence(game), "1"))
    due = timezone.datetime.fromisoformat((await presence(game))["1"])
    assert timedelta(seconds=59) < due - closed_at < timedelta(seconds=61)

    # Back within the grace: present again, and the grace gone.
    await connect(game.pk, users[1])
    await wait_for(lambda: _equals(presence(game), {"0": None, "1": None}))


async def test_a_grace_stored_by_a_dead_owner_is_kept_by_the_next(connect):
    game, users = await new_match()
    first = await connect(game.pk, users[0])
    second = await connect(game.pk, users[1])
    await first.receive_until(all_connected)
    await second.close()
    await wait_for(lambda: _has_grace(presence(game), "1"))
    # The owner is gone (its process died) with the grace two seconds from
    # running out; nothing else holds it.
    await first.close()
    await stop_hall()
    due = timezone.now() + timedelta(seconds=2)
    await set_presence(game, {"0": None, "1": due.isoformat()})

    # The player still at the table comes back to another owner, which
    # ends the absent seat's grace on time: seat 1 leaves, not seat 0.
    first = await connect(game.pk, users[0])
    await first.receive_until(of_type("sync"))
    end = await first.receive_until(
        lambda frame: frame["type"] == "sync" and frame["status"] != "playing",
        timeout=10,
    )
    assert end["status"] == "finished"
    assert await ending(game) == ("finished", 1, "disconnect", [1])


async def test_a_seat_present_when_its_owner_died_gets_a_grace_if_it_never_returns(
    connect, settings
):
    settings.PULKA_DISCONNECT_GRACE_SECONDS = 1
    settings.PULKA_SOCKET_SILENCE_SECONDS = 3
    game, users = await new_match()
    first = await connect(game.pk, users[0])
    second = await connect(game.pk, users[1])
    await first.receive_until(all_connected)
    assert await presence(game) == {"0": None, "1": None}
    await first.close()
    await second.close()
    await stop_hall()
    # As the owner left it when it died with both players present (before
    # it could see either go, whatever Redis remembers).
    await set_presence(game, {"0": None, "1": None})
    first = await connect(game.pk, users[0])
    # Seat 1 is expected back for the silence limit, then has its grace;
    # seat 0 keeps its socket alive meanwhile.
    limit = asyncio.get_running_loop().time() + 20
    while (await ending(game))[0] == "playing":
        assert asyncio.get_running_loop().time() < limit, "the grace never ended"
        await first.send({"type": "ping"})
        await asyncio.sleep(0.3)
    assert await ending(game) == ("finished", 1, "disconnect", [1])


async def _equals(awaitable, expected) -> bool:
    return await awaitable == expected


async def _has_grace(awaitable, seat: str) -> bool:
    return (await awaitable).get(seat) is not None
