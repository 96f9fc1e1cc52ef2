"""A live game outlives the server that owns it: real uvicorn processes
killed with SIGKILL or stopped, real PostgreSQL, Redis and Celery."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from games import services
from games.models import Game, GameEvent

from .support import (
    DISCONNECT_GRACE_SECONDS,
    SOCKET_SILENCE_SECONDS,
    TableClient,
    shown_connected,
)

# A takeover waits for the dead owner's lease to expire, then for a beat of
# another server's heartbeat (games.live.hall).
TAKEOVER_SECONDS = 10


def kill(process) -> None:
    os.killpg(process.proc.pid, signal.SIGKILL)
    process.proc.wait()


def new_match(alice, bob, turn_seconds: int) -> Game:
    table = services.table_create(
        user=alice.user, profile="japanese", turn_seconds=turn_seconds
    )
    services.seat_take(table_id=table.pk, user=bob.user, number=1)
    return Game.objects.get(table=table)


def event_rows(game_id: int) -> list[tuple]:
    return list(
        GameEvent.objects.filter(game_id=game_id)
        .order_by("version")
        .values_list("version", "seat", "client_id", "cause")
    )


def at_version(version: int):
    return lambda client: client.snapshot["version"] >= version


@pytest.mark.timeout(150)
@pytest.mark.django_db(transaction=True)
def test_a_game_goes_on_from_another_server_when_its_owner_is_killed(
    own_servers, worker, people
):
    first, first_url = own_servers("owner")
    alice, bob = people(2)
    game = new_match(alice, bob, turn_seconds=5)
    _, second_url = own_servers("other")

    async def scenario():
        async with (
            TableClient(first_url, game.pk, alice.session_key) as a,
            TableClient(second_url, game.pk, bob.session_key) as b,
        ):
            await asyncio.gather(
                a.play_until(at_version(12), timeout=40),
                b.play_until(at_version(12), timeout=40),
            )
            acked = dict(a.acks)
            killed_at = time.monotonic()
            kill(first)
            # Alice's socket died with the server: she comes back on the other.
            async with TableClient(second_url, game.pk, alice.session_key) as a2:
                back = time.monotonic() - killed_at
                await asyncio.gather(
                    a2.play_until(at_version(30), timeout=60),
                    b.play_until(at_version(30), timeout=60),
                )
                # Nobody moves now: the turn's timer, on the new owner, runs out.
                version = a2.snapshot["version"]
                await b.receive_until(at_version(version + 1), timeout=20)
                return acked, {**a2.acks, **b.acks}, back, a2, b

    acked, later_acks, back, a2, b = asyncio.run(scenario())

    assert back < TAKEOVER_SECONDS + 5
    rows = event_rows(game.pk)
    versions = [version for version, *_ in rows]
    assert versions == list(range(1, len(rows) + 1))
    by_client = {client: version for version, _, client, _ in rows if client}
    # Every acknowledged move is there once, at the version its answer named.
    for client_id, ack in {**acked, **later_acks}.items():
        assert by_client[client_id] == ack["version"]
    assert [cause for *_, cause in rows][-1] == GameEvent.Cause.TIMEOUT
    assert not [e for e in a2.errors + b.errors if e["code"] != "stale_version"]


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_a_killed_servers_player_shows_away_and_loses_the_seat_after_the_grace(
    own_servers, worker, people
):
    _, owner_url = own_servers("owner")
    alice, bob = people(2)
    game = new_match(alice, bob, turn_seconds=120)
    doomed, doomed_url = own_servers("doomed")

    async def scenario():
        async with TableClient(owner_url, game.pk, bob.session_key) as b:
            async with TableClient(doomed_url, game.pk, alice.session_key) as a:
                await b.receive_until(lambda c: shown_connected(c, 0), timeout=10)
                # A frame nested too deep to parse is refused; the socket lives.
                await a.ws.send("[" * 4000)
                await a.receive_until(lambda c: bool(c.errors), timeout=10)
                assert a.errors[-1]["code"] == "bad_json"
                await a.send({"type": "ping"})
                await a.receive_until(
                    lambda c: c.messages[-1]["type"] == "pong", timeout=5
                )
                killed_at = time.monotonic()
                kill(doomed)
                await b.receive_until(
                    lambda c: shown_connected(c, 0) is False, timeout=15
                )
                away_after = time.monotonic() - killed_at
                await b.receive_until(
                    lambda c: c.snapshot["status"] != "playing",
                    timeout=DISCONNECT_GRACE_SECONDS + 15,
                )
                return away_after, b.snapshot

    away_after, final = asyncio.run(scenario())
    assert away_after < SOCKET_SILENCE_SECONDS + 4
    assert final["status"] == "finished"
    assert final["view"]["places"] == [2, 1]
    resign = GameEvent.objects.filter(game=game, kind="action").last()
    assert (resign.seat, resign.cause) == (0, GameEvent.Cause.DISCONNECT)
