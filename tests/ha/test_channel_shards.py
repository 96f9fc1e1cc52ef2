"""The channel layer sharded over two Redis servers
(``PULKA_REDIS_CHANNELS_URL`` listing both): two uvicorn servers play a
game whose players sit one on each, so that moves and updates cross the
layer, and both shards carry the layer's channels and groups.
"""

from __future__ import annotations

import asyncio

import pytest

from games import services
from games.models import Game
from tests.live.support import TableClient, wait_all_disconnected
from tests.live.test_owners import event_rows
from tests.processes import free_port

from .sentinels import answers, start_server, wait_for


@pytest.fixture
def shards(tmp_path_factory, log_dir):
    directory = tmp_path_factory.mktemp("shards")
    ports = [free_port(), free_port()]
    processes = [
        start_server(f"shard-{number}", port, directory, log_dir)
        for number, port in enumerate(ports, start=1)
    ]
    try:
        for port in ports:
            wait_for(lambda port=port: answers(port).ping(), 30, "a shard to start")
        yield ports
    finally:
        for process in processes:
            process.stop()


def calls(port: int, command: str) -> int:
    stats = answers(port).info("commandstats")
    return int(stats.get(f"cmdstat_{command}", {}).get("calls", 0))


@pytest.mark.timeout(180)
@pytest.mark.django_db(transaction=True)
def test_a_game_across_two_servers_plays_on_a_sharded_channel_layer(
    shards, own_servers, people
):
    env = {
        "PULKA_REDIS_CHANNELS_URL": " ".join(
            f"redis://127.0.0.1:{port}/0" for port in shards
        )
    }
    _, first = own_servers("shards-web-1", env=env)
    _, second = own_servers("shards-web-2", env=env)
    alice, bob = people(2)
    table = services.table_create(user=alice.user, profile="japanese", turn_seconds=120)
    services.seat_take(table_id=table.pk, user=bob.user, number=1)
    game = Game.objects.get(table=table)

    async def play():
        async with TableClient(first, game.pk, alice.session_key) as a:
            async with TableClient(second, game.pk, bob.session_key) as b:
                done = lambda client: client.snapshot["version"] >= 16  # noqa: E731
                await asyncio.gather(
                    a.play_until(done, timeout=60), b.play_until(done, timeout=60)
                )
                return {**a.acks, **b.acks}

    acked = asyncio.run(play())
    wait_all_disconnected(game.pk)

    # Each shard holds some of the channels and groups the servers
    # listen on; the moves' messages were published on them.
    assert all(calls(port, "subscribe") > 0 for port in shards)
    assert sum(calls(port, "publish") for port in shards) > 0
    rows = event_rows(game.pk)
    by_client = {client: version for version, _, client, _ in rows if client}
    assert acked and all(
        by_client[client] == ack["version"] for client, ack in acked.items()
    )
