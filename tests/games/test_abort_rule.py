"""Calling a ranked or staked game off is no free redeal (docs/security.md,
"Farming"): once every person at the table has been shown their hand, an
abort is refused and changes nothing; before that (a no-show), or at a
casual table, it is allowed as always."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from coins.services.escrow import escrow_balance
from games.models import Game, GameEvent
from games.stakes import escrow_ref
from ratings.categories import preset
from tests.games.helpers import all_connected, of_type, start_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

STAKE = 10


@database_sync_to_async
def ranked_match():
    profile, options = preset("japanese")
    table, users = start_table(profile, options, people=2, ranked=True, stake=STAKE)
    return Game.objects.get(table=table), users


@database_sync_to_async
def casual_match():
    table, users = start_table("japanese", {"target": 11}, people=2)
    return Game.objects.get(table=table), users


@database_sync_to_async
def stored(game):
    game.refresh_from_db()
    return (
        game.status,
        game.version,
        GameEvent.objects.filter(game=game).count(),
        escrow_balance(escrow_ref(game)),
    )


async def test_a_ranked_game_seen_by_everyone_cannot_be_called_off(connect):
    game, users = await ranked_match()
    before = await stored(game)
    first = await connect(game.pk, users[0])
    second = await connect(game.pk, users[1])
    for socket in (first, second):
        await socket.receive_until(all_connected)
    await first.send({"type": "abort", "id": "ab"})
    error = await first.receive_until(of_type("error"))
    assert (error["id"], error["code"]) == ("ab", "not_allowed")
    assert "resign" in error["message"]
    assert await stored(game) == before == ("playing", 1, 1, 2 * STAKE)
    assert await second.nothing_more()


async def test_a_ranked_game_is_called_off_while_the_other_player_never_came(
    connect,
):
    game, users = await ranked_match()
    first = await connect(game.pk, users[0])
    await first.receive_until(of_type("presence"))
    await first.send({"type": "abort", "id": "ab"})
    assert await first.receive_until(of_type("ack")) == {"type": "ack", "id": "ab"}
    status, _, _, escrow = await stored(game)
    assert (status, escrow) == ("aborted", 0)


async def test_the_rule_holds_for_a_player_who_went_away(connect):
    # Seen once is seen: the other player's socket closing changes nothing.
    game, users = await ranked_match()
    first = await connect(game.pk, users[0])
    second = await connect(game.pk, users[1])
    await first.receive_until(all_connected)
    await second.close()
    await first.receive_until(
        lambda frame: frame["type"] == "presence" and not frame["seats"][1]["connected"]
    )
    await first.send({"type": "abort", "id": "ab"})
    error = await first.receive_until(of_type("error"))
    assert error["code"] == "not_allowed"
    assert (await stored(game))[0] == "playing"


async def test_a_casual_game_is_called_off_as_before(connect):
    game, users = await casual_match()
    first = await connect(game.pk, users[0])
    second = await connect(game.pk, users[1])
    await first.receive_until(all_connected)
    await second.send({"type": "abort", "id": "ab"})
    assert await second.receive_until(of_type("ack")) == {"type": "ack", "id": "ab"}
    assert (await stored(game))[0] == "aborted"
