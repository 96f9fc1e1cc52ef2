"""Two uvicorn processes share one table through the Redis channel layer."""

from __future__ import annotations

import asyncio

import pytest

from games import services
from games.models import Game, GameEvent

from .support import TableClient, wait_all_disconnected

TRICKS_PER_JAPANESE_DEAL = 18


def first_deal_over(client: TableClient) -> bool:
    return client.snapshot["view"]["deal"] >= 1


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_a_deal_played_across_two_servers(servers, people):
    first_server, second_server = servers
    alice, bob = people(2)
    table = services.table_create(user=alice.user, profile="japanese", turn_seconds=120)
    services.seat_take(table_id=table.pk, user=bob.user, number=1)
    game = Game.objects.get(table=table)

    async def play():
        async with (
            TableClient(first_server, game.pk, alice.session_key) as a,
            TableClient(second_server, game.pk, bob.session_key) as b,
        ):
            await asyncio.gather(
                a.play_until(first_deal_over, timeout=90),
                b.play_until(first_deal_over, timeout=90),
            )
            return a, b

    a, b = asyncio.run(play())
    wait_all_disconnected(game.pk)

    assert (a.you, b.you) == (0, 1)
    assert not a.errors and not b.errors
    # Each saw the other's cards arrive as updates, relayed by the other
    # server through Redis.
    for client, other in ((a, b), (b, a)):
        seen = {
            event["seat"]
            for update in client.updates
            for step in update["events"]
            for event in step["events"]
            if event["type"] == "card"
        }
        assert other.you in seen
    # Both ended on the same version, with the same eighteen tricks. The
    # database holds that version and at most the next deal after it: the
    # owner may deal it while the clients are hanging up.
    game.refresh_from_db()
    assert a.snapshot["version"] == b.snapshot["version"] <= game.version
    later = GameEvent.objects.filter(game=game, version__gt=a.snapshot["version"])
    assert not later.exclude(kind=GameEvent.Kind.DEAL)
    a_tricks = [event for _, event in a.public_events("trick")]
    b_tricks = [event for _, event in b.public_events("trick")]
    assert len(a_tricks) == TRICKS_PER_JAPANESE_DEAL
    assert a_tricks == b_tricks
    stored = [
        event
        for row in GameEvent.objects.filter(game=game).order_by("version")
        for event in row.public
        if event["type"] == "trick"
    ]
    assert stored == a_tricks
    # Every action was the players' own; no timer stepped in.
    causes = set(
        GameEvent.objects.filter(game=game, kind="action").values_list(
            "cause", flat=True
        )
    )
    assert causes == {GameEvent.Cause.PLAYER}
    assert a.snapshot["view"]["deals"] == b.snapshot["view"]["deals"]
