"""The disconnect grace period on real servers and a real worker."""

from __future__ import annotations

import asyncio
import time

import pytest

from games import services
from games.models import Game, GameEvent, Seat

from .support import (
    DISCONNECT_GRACE_SECONDS,
    TableClient,
    barrier,
    db_call,
    shown_connected,
    wait_all_disconnected,
    wait_until,
)


def seat_row(game_id: int, number: int) -> Seat:
    return Seat.objects.get(table__game__pk=game_id, number=number)


def resignations(game_id: int) -> list[GameEvent]:
    return [
        event
        for event in GameEvent.objects.filter(game_id=game_id, kind="action")
        if "resign" in event.action
    ]


@pytest.mark.timeout(90)
@pytest.mark.django_db(transaction=True)
def test_japanese_seat_kept_on_reconnect_and_forfeited_after_the_grace(
    servers, worker, people
):
    first_server, second_server = servers
    alice, bob = people(2)
    table = services.table_create(user=alice.user, profile="japanese", turn_seconds=120)
    services.seat_take(table_id=table.pk, user=bob.user, number=1)
    game = Game.objects.get(table=table)

    async def scenario():
        async with TableClient(second_server, game.pk, bob.session_key) as b:
            async with TableClient(first_server, game.pk, alice.session_key):
                await b.receive_until(lambda c: shown_connected(c, 0), timeout=10)
            await b.receive_until(lambda c: shown_connected(c, 0) is False, timeout=10)
            gone = time.monotonic()

            async with TableClient(first_server, game.pk, alice.session_key) as a:
                assert time.monotonic() - gone < DISCONNECT_GRACE_SECONDS
                # Stay past the end of the first grace period; its timer
                # runs on the worker meanwhile and must find her back.
                await asyncio.sleep(DISCONNECT_GRACE_SECONDS + 1)
                await asyncio.to_thread(barrier)
                seat = await db_call(seat_row, game.pk, 0)
                assert not seat.left
                assert shown_connected(a, 0)
                assert await db_call(resignations, game.pk) == []
                await a.send({"type": "ping"})
                await a.receive_until(
                    lambda c: c.messages[-1]["type"] == "pong", timeout=5
                )
                assert a.snapshot["status"] == "playing"

            # Gone for good: after the grace period she leaves the game and,
            # two players being all there are, Bob wins.
            await b.receive_until(
                lambda c: c.snapshot["status"] != "playing",
                timeout=DISCONNECT_GRACE_SECONDS + 15,
            )
            return b

    b = asyncio.run(scenario())
    wait_all_disconnected(game.pk)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["places"] == [2, 1]
    assert game.result["winners"] == [1]
    assert b.snapshot["status"] == "finished"
    assert b.snapshot["view"]["places"] == [2, 1]
    (resign,) = resignations(game.pk)
    assert (resign.seat, resign.cause) == (0, GameEvent.Cause.DISCONNECT)
    assert seat_row(game.pk, 0).left


@pytest.mark.timeout(90)
@pytest.mark.django_db(transaction=True)
def test_four_player_seat_left_after_the_grace_is_played_by_a_bot(
    servers, worker, people, first_dealer
):
    (alice,) = people(1)
    first_dealer(3)  # Alice, at seat 0, is the first to bid
    table = services.table_create(
        user=alice.user, profile="georgian-club", turn_seconds=120
    )
    for number in (1, 2, 3):
        services.seat_add_bot(
            table_id=table.pk, user=alice.user, number=number, bot="autopilot"
        )
    game = Game.objects.get(table=table)

    async def visit():
        async with TableClient(servers[0], game.pk, alice.session_key) as a:
            return a.snapshot

    snapshot = asyncio.run(visit())
    assert snapshot["view"]["turn"] == 0 and snapshot["view"]["legal"]

    wait_until(lambda: resignations(game.pk), DISCONNECT_GRACE_SECONDS + 15, "leave")
    (resign,) = resignations(game.pk)
    assert (resign.seat, resign.cause) == (0, GameEvent.Cause.DISCONNECT)
    assert seat_row(game.pk, 0).left

    # Her seat is played on by the autopilot, as a bot's seat.
    played_for_her = wait_until(
        lambda: GameEvent.objects.filter(
            game=game, seat=0, kind="action", version__gt=resign.version
        ).first(),
        15,
        "a move for the seat that left",
    )
    assert played_for_her.cause == GameEvent.Cause.BOT
    assert "bid" in played_for_her.action
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
