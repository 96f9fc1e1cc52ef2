"""Two processes' halls (here: two halls on one event loop, each with its own
channel, database pool and leases) contend for one game on the real
PostgreSQL and Redis: the lease gives it to one, and the events' unique
version fences the other out should both believe they own it."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from games.live.commands import Action
from games.live.hall import Hall
from games.live.leases import owner_key
from games.live.probe import resync_remote_sockets
from games.live.sinks import RemoteSink
from games.models import Game, GameEvent
from tests.games.helpers import start_game

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


class Recorder:
    """A socket as the owner sees one: it keeps what it is sent."""

    def __init__(self):
        self.frames: list[dict] = []

    async def send_text(self, text: str) -> None:
        self.frames.append(json.loads(text))

    async def close(self, code: int) -> None:
        self.frames.append({"type": "closed", "code": code})

    def answers(self) -> list[dict]:
        return [f for f in self.frames if f["type"] in ("ack", "error")]


@database_sync_to_async
def new_game() -> Game:
    return start_game("japanese", {"target": 11}, people=2)


@database_sync_to_async
def events_at(game: Game, version: int) -> int:
    return GameEvent.objects.filter(game=game, version=version).count()


async def started_halls(count: int) -> list[Hall]:
    halls = [Hall() for _ in range(count)]
    for hall in halls:
        await hall.start()
    return halls


async def test_the_lease_gives_a_game_to_one_hall_only():
    game = await new_game()
    first, second = await started_halls(2)
    try:
        owners = await asyncio.gather(first.adopt(game.pk), second.adopt(game.pk))
        assert sum(owner is not None for owner in owners) == 1
        winner = first if owners[0] is not None else second
        assert await winner.redis.get(owner_key(game.pk)) == winner.channel
    finally:
        for hall in (first, second):
            await hall.stop()


async def test_a_lease_redis_lost_is_taken_again_by_its_holder():
    """Redis forgot the lease (a failover to a replica it had not reached,
    a restart) and nobody took the game meanwhile: the holder's heartbeat
    takes it again and keeps the game, its sockets open."""
    game = await new_game()
    (hall,) = await started_halls(1)
    try:
        owner = await hall.adopt(game.pk)
        assert owner is not None
        sink = Recorder()
        await owner.attach("player", sink, 0, None)
        await hall.redis.delete(owner_key(game.pk))
        await hall.heartbeat()
        assert await hall.redis.get(owner_key(game.pk)) == hall.channel
        assert await hall.redis.pttl(owner_key(game.pk)) > 0
        assert hall.owners.get(game.pk) is owner
        assert not [f for f in sink.frames if f["type"] == "closed"]
    finally:
        await hall.stop()


class Layer:
    """A channel layer that keeps what it is sent."""

    def __init__(self):
        self.sent: list[tuple[str, dict]] = []

    async def send(self, channel: str, message: dict) -> None:
        self.sent.append((channel, message))


async def test_after_a_stall_of_the_channel_layer_sockets_elsewhere_are_synced():
    """What an owner sent through a stalled channel layer may be lost: each
    socket in another process is sent a sync; those here, called directly,
    lost nothing and are not."""
    game = await new_game()
    (hall,) = await started_halls(1)
    try:
        owner = await hall.adopt(game.pk)
        assert owner is not None
        here, layer = Recorder(), Layer()
        await owner.attach("here", here, 0, None)
        await owner.attach("there", RemoteSink(layer, "specific.there"), 1, None)
        here.frames.clear()
        layer.sent.clear()
        await resync_remote_sockets(hall)
        assert not here.frames
        [(channel, message)] = layer.sent
        assert channel == "specific.there"
        assert json.loads(message["text"])["type"] == "sync"
    finally:
        await hall.stop()


async def test_of_two_would_be_owners_exactly_one_writes_and_the_other_yields():
    game = await new_game()
    stalled, taker = await started_halls(2)
    try:
        old = await stalled.adopt(game.pk)
        # The first hall stalls past its lease: the key expires, and the
        # second takes the game over while the first still holds it.
        await stalled.redis.delete(owner_key(game.pk))
        new = await taker.adopt(game.pk)
        assert old is not None and new is not None

        seat = old.live.state.turn
        sinks = [Recorder(), Recorder()]
        for owner, sink in zip((old, new), sinks, strict=True):
            await owner.attach("player", sink, seat, None)
        action = {"trump": "H"}
        await asyncio.gather(
            *(
                owner.handle(Action(seat, f"by-{n}", 1, action), "player")
                for n, owner in enumerate((old, new))
            )
        )
        answers = [sink.answers()[-1] for sink in sinks]
        assert sorted(answer["type"] for answer in answers) == ["ack", "error"]
        refused = next(a for a in answers if a["type"] == "error")
        assert refused["code"] == "stale_version"
        assert await events_at(game, 2) == 1

        # The stalled hall's next heartbeat finds the lease gone to the
        # other: it gives the game up and closes its sockets.
        await stalled.heartbeat()
        await asyncio.sleep(0.1)
        assert game.pk not in stalled.owners
        assert game.pk in taker.owners
        assert {"type": "closed", "code": 4012} in sinks[0].frames
    finally:
        for hall in (stalled, taker):
            await hall.stop()


async def test_a_task_that_met_the_database_unavailable_logs_one_line(caplog):
    """A takeover scan while PostgreSQL refuses connections is an outage to
    wait out: one warning line, no traceback; any other failure stays an
    error with its traceback."""
    from django.db import OperationalError

    (hall,) = await started_halls(1)

    async def refused():
        raise OperationalError("couldn't get a connection after 3.00 sec\nmore")

    async def broken():
        raise ValueError("a bug")

    try:
        with caplog.at_level("WARNING", logger="games.live.hall"):
            for coroutine in (refused(), broken()):
                task = hall.spawn(coroutine)
                await asyncio.wait([task])
                await asyncio.sleep(0)
        records = [r for r in caplog.records if r.name == "games.live.hall"]
        assert [(r.levelname, r.exc_info is not None) for r in records] == [
            ("WARNING", False),
            ("ERROR", True),
        ]
        assert "couldn't get a connection after 3.00 sec" in records[0].getMessage()
        assert "more" not in records[0].getMessage()
    finally:
        await hall.stop()
