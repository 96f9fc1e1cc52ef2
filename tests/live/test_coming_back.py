"""A player who comes back: within the grace they are told how much of it
was left and the others see until when they are away; after it, on a casual
table, they take the seat back from the bot at its next turn, and the
record of the game says so and replays."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from datetime import datetime

import pytest

from games import services
from games.live import loading
from games.models import Game, GameEvent, Seat
from games.selectors import game_history
from joker.record import record_json

from .support import (
    DISCONNECT_GRACE_SECONDS,
    TableClient,
    shown_connected,
    wait_all_disconnected,
    wait_until,
)


def left_by_disconnect(game_id: int) -> GameEvent | None:
    return GameEvent.objects.filter(
        game_id=game_id, action__has_key="resign", cause=GameEvent.Cause.DISCONNECT
    ).first()


def a_casual_table_with_bots(person, profile="georgian-club"):
    table = services.table_create(user=person.user, profile=profile, turn_seconds=120)
    for number in (1, 2, 3):
        services.seat_add_bot(
            table_id=table.pk, user=person.user, number=number, bot="autopilot"
        )
    return Game.objects.get(table=table)


@pytest.mark.timeout(90)
@pytest.mark.django_db(transaction=True)
def test_back_within_the_grace_is_told_what_was_left_and_the_others_see_until_when(
    servers, worker, people
):
    alice, bob = people(2)
    table = services.table_create(user=alice.user, profile="japanese", turn_seconds=120)
    services.seat_take(table_id=table.pk, user=bob.user, number=1)
    game = Game.objects.get(table=table)

    async def scenario():
        async with TableClient(servers[1], game.pk, bob.session_key) as b:
            async with TableClient(servers[0], game.pk, alice.session_key):
                await b.receive_until(lambda c: shown_connected(c, 0), timeout=10)
            await b.receive_until(lambda c: shown_connected(c, 0) is False, timeout=10)
            away = next(m for m in reversed(b.messages) if "seats" in m)["seats"][0]
            async with TableClient(servers[0], game.pk, alice.session_key) as a:
                await a.receive_until(
                    lambda c: any(m["type"] == "back" for m in c.messages), timeout=5
                )
                back = next(m for m in a.messages if m["type"] == "back")
            return away, back

    away, back = asyncio.run(scenario())
    wait_all_disconnected(game.pk)
    # The others were told until when she keeps the seat; she was told how
    # much of the grace she still had.
    assert away["connected"] is False
    assert datetime.fromisoformat(away["away_until"])
    assert 0 < back["grace_left"] <= DISCONNECT_GRACE_SECONDS
    assert left_by_disconnect(game.pk) is None


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_on_a_casual_table_the_seat_is_taken_back_at_its_next_turn(
    servers, worker, people, first_dealer
):
    (alice,) = people(1)
    first_dealer(3)  # Alice, at seat 0, is the first to bid
    game = a_casual_table_with_bots(alice)

    async def visit():
        async with TableClient(servers[0], game.pk, alice.session_key) as a:
            return a.snapshot

    asyncio.run(visit())
    left = wait_until(
        lambda: left_by_disconnect(game.pk), DISCONNECT_GRACE_SECONDS + 15, "leave"
    )

    async def come_back():
        async with TableClient(servers[0], game.pk, alice.session_key) as a:
            seat = a.snapshot["seats"][0]
            told = (seat["left"], seat["left_cause"], a.snapshot["rejoin_allowed"])
            await a.send({"type": "rejoin", "id": "back-1"})
            await a.receive_until(lambda c: "back-1" in c.acks, timeout=5)
            # Hers from her next turn on: the page offers her the choices.
            await a.receive_until(
                lambda c: not c.snapshot["seats"][0]["left"] and c.my_turn(),
                timeout=30,
            )
            return told

    told = asyncio.run(come_back())
    wait_all_disconnected(game.pk)
    assert told == (True, "disconnect", True)

    rejoined = GameEvent.objects.get(game=game, action={"seat": 0, "rejoin": True})
    assert rejoined.version > left.version
    assert rejoined.public == [{"type": "rejoin", "seat": 0}]
    # Nothing was played for her seat after it came back.
    assert not GameEvent.objects.filter(
        game=game, seat=0, version__gt=rejoined.version, cause=GameEvent.Cause.BOT
    ).exists()
    assert not Seat.objects.get(table__game=game, number=0).left
    live = loading.load(game.pk)
    assert not live.seats[0].left and 0 not in live.state.left

    # The game's record replays, the seat's return included.
    game.refresh_from_db()
    record = record_json(game.table.rules, game.first_dealer, game_history(game))
    actions = [a for deal in record["deals"] for a in deal["actions"]]
    assert {"seat": 0, "rejoin": True} in actions
    command = subprocess.run(
        [sys.executable, "-m", "games.engine.replay"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=False,
    )
    assert command.returncode == 0, command.stdout + command.stderr
