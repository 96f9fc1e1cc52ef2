"""The rematch messages of the table socket (docs/protocol.md, "Rematch"),
over real WebSockets and the real Redis channel layer."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import Game, Rematch, Table
from tests.factories import UserFactory
from tests.games.helpers import of_type, resign, start_table
from tests.ranked.helpers import ranked_game

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@db
def finished_match(**kwargs):
    """A Japanese match its second player resigned; the players by seat."""
    table, users = start_table("japanese", {"target": 11}, people=2, **kwargs)
    game = Game.objects.get(table=table)
    resign(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game, users


@db
def stranger():
    return UserFactory()


@db
def offer_of(game):
    return Rematch.objects.filter(game=game).values_list("state", "reason").first()


@db
def tables():
    return Table.objects.count()


def rematch(state: str):
    return lambda frame: frame["type"] == "rematch" and frame["state"] == state


async def both_at_the_table(connect, game, users):
    sockets = [await connect(game.pk, user) for user in users]
    for socket in sockets:
        await socket.receive_until(of_type("sync"))
    return sockets


async def test_both_players_agree_and_both_sockets_hear_of_the_new_table(connect):
    game, users = await finished_match()
    first, second = await both_at_the_table(connect, game, users)

    await second.send({"type": "rematch", "id": "r1"})
    for socket in (first, second):
        offer = await socket.receive_until(rematch("open"))
        assert (offer["game"], offer["agreed"], offer["waiting"]) == (game.pk, [1], [0])
        assert offer["expires"]

    await first.send({"type": "rematch"})
    made = [await socket.receive_until(rematch("made")) for socket in (first, second)]
    assert made[0] == made[1]
    assert (
        made[0]["agreed"] == [0, 1] and made[0]["url"] == f"/tables/{made[0]['table']}/"
    )

    # A socket opened later at the old table is told where things stand.
    late = await connect(game.pk, users[0])
    told = await late.receive_until(of_type("rematch"))
    assert (told["state"], told["table"]) == ("made", made[0]["table"])


async def test_refusals_are_errors_and_change_nothing(connect):
    table, users = await db(start_table)("japanese", {"target": 11}, people=2)
    playing = await db(Game.objects.get)(table=table)
    socket = await connect(playing.pk, users[0])
    await socket.receive_until(of_type("sync"))
    await socket.send({"type": "rematch", "id": "r1"})
    error = await socket.receive_until(of_type("error"))
    assert (error["id"], error["code"]) == ("r1", "game_not_finished")

    game, users = await finished_match()
    watcher = await connect(game.pk, await stranger())
    await watcher.receive_until(of_type("sync"))
    await watcher.send({"type": "rematch"})
    assert (await watcher.receive_until(of_type("error")))["code"] == "not_a_player"

    first, second = await both_at_the_table(connect, game, users)
    await first.send({"type": "rematch_decline"})
    assert (await first.receive_until(of_type("error")))["code"] == "no_offer"
    await first.send({"type": "rematch"})
    await first.receive_until(rematch("open"))
    await first.send({"type": "rematch"})
    assert (await first.receive_until(of_type("error")))["code"] == "rematch_agreed"
    assert await offer_of(game) == ("open", "")


async def test_declining_lapses_the_offer_for_everyone(connect):
    game, users = await finished_match()
    first, second = await both_at_the_table(connect, game, users)
    await first.send({"type": "rematch"})
    await second.receive_until(rematch("open"))
    await second.send({"type": "rematch_decline"})
    for socket in (first, second):
        lapsed = await socket.receive_until(rematch("lapsed"))
        assert (lapsed["reason"], lapsed["seat"]) == ("declined", 1)
    assert await offer_of(game) == ("lapsed", "declined")


async def test_a_player_leaving_the_page_lapses_the_offer(connect):
    game, users = await finished_match()
    first, second = await both_at_the_table(connect, game, users)
    await first.send({"type": "rematch"})
    await second.receive_until(rematch("open"))
    await first.close()
    lapsed = await second.receive_until(rematch("lapsed"))
    assert (lapsed["reason"], lapsed["seat"]) == ("left", 0)
    before = await tables()
    await second.send({"type": "rematch"})
    offer = await second.receive_until(rematch("open"))
    assert offer["agreed"] == [1]
    assert await tables() == before


async def test_a_refused_seat_is_told_to_everyone_and_leaves_no_table(connect):
    game = await db(ranked_game)("japanese")
    users = await db(lambda: [s.user for s in game.table.seats.order_by("number")])()
    await db(resign)(game_id=game.pk, user=users[0])
    first, second = await both_at_the_table(connect, game, users)
    await first.send({"type": "rematch"})
    await second.receive_until(rematch("open"))
    # The second player sits down at another ranked table meanwhile.
    await db(ranked_game)("japanese", users=[users[1], await stranger()])
    before = await tables()
    await second.send({"type": "rematch", "id": "last"})
    error = await second.receive_until(of_type("error"))
    assert (error["id"], error["code"]) == ("last", "rematch_refused")
    for socket in (first, second):
        lapsed = await socket.receive_until(rematch("lapsed"))
        assert (lapsed["reason"], lapsed["seat"]) == ("ranked_elsewhere", 1)
    assert await tables() == before


async def test_a_finished_game_without_an_offer_sends_no_rematch_message(connect):
    game, users = await finished_match()
    socket = await connect(game.pk, users[0])
    await socket.receive_until(of_type("sync"))
    assert await socket.nothing_more()
