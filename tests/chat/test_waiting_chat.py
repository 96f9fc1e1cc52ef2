"""The chat of a table still waiting for its last players, on the waiting
page's socket (/ws/tables/<id>/): its seated players talk in the players'
room, anyone else watching in the spectators', a bad frame or message gets
its error and changes nothing, and when the game begins the same rooms go
on at the table (docs/chat.md, docs/protocol.md)."""

from __future__ import annotations

import json

import pytest
from websockets.asyncio.client import connect

from chat.models import Message, PersonalMute, Report
from games import services
from games.models import Game
from social.services import block_create
from tests.chat.helpers import a_player, chat, db, heard_since, refused, said, stored
from tests.factories import UserFactory
from tests.games.helpers import of_type
from tests.live.support import session_cookie
from tests.serving import serving

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@db
def a_waiting_table(*, is_private: bool = False):
    """A table of four with two people in seats 0 and 1 and two seats
    free: the table and its two players."""
    nino, giorgi = UserFactory(), UserFactory()
    table = services.table_create(
        user=nino,
        profile="georgian-club",
        options={"schedule": "nines"},
        is_private=is_private,
    )
    services.seat_take(
        table_id=table.pk, user=giorgi, number=1, invite_code=table.invite_code
    )
    return table, (nino, giorgi)


def waiting_path(table) -> str:
    return f"/ws/tables/{table.pk}/"


async def test_seated_players_talk_while_the_table_waits(sockets):
    table, (nino, giorgi) = await a_waiting_table()
    first = await sockets(waiting_path(table), nino)
    second = await sockets(waiting_path(table), giorgi)
    await first.send(chat("gamarjoba"))
    heard = await said(second)
    assert heard["text"] == "gamarjoba"
    assert heard["author"] == {"id": nino.pk, "name": nino.username}
    assert (heard["room"], heard["table"], heard["game"]) == ("players", table.pk, None)
    assert (await said(first))["id"] == heard["id"]
    await second.send({"type": "chat", "id": "c2", "phrase": "good_luck"})
    assert (await said(first))["phrase"] == "good_luck"
    assert await stored() == [
        ("players", "gamarjoba", ""),
        ("players", "", "good_luck"),
    ]
    # The socket still answers its pings.
    await first.send({"type": "ping"})
    await first.receive_until(of_type("pong"))


async def test_someone_without_a_seat_is_in_the_spectators_room(sockets):
    table, (nino, giorgi) = await a_waiting_table()
    first = await sockets(waiting_path(table), nino)
    second = await sockets(waiting_path(table), giorgi)
    watcher = await sockets(waiting_path(table), await a_player())
    start = len(second.frames)
    await watcher.send(chat("who is the fourth?"))
    assert (await said(watcher))["room"] == "spectators"
    await first.send(chat("hi"))
    # Had the spectator's message reached the players, it would come first.
    assert (await said(second))["text"] == "hi"
    assert [m["text"] for m in heard_since(second, start)] == ["hi"]
    await watcher.send(chat("again", "c2"))
    assert (await said(watcher))["text"] == "again"
    assert [m["text"] for m in heard_since(watcher, 0)] == [
        "who is the fourth?",
        "again",
    ]


async def test_a_socket_gets_the_rooms_history_and_the_seat_changes(sockets):
    table, (nino, giorgi) = await a_waiting_table()
    first = await sockets(waiting_path(table), nino)
    await first.send(chat("one"))
    await said(first)
    second = await sockets(waiting_path(table), giorgi)
    history = await second.receive_until(of_type("chat_history"))
    assert history["room"] == "players"
    assert [m["text"] for m in history["messages"]] == ["one"]
    # A seat taken: every waiting page hears that the tables changed.
    tamar = await a_player()
    await db(services.seat_take)(table_id=table.pk, user=tamar, number=2)
    await first.receive_until(of_type("lobby"))
    await second.receive_until(of_type("lobby"))


async def test_the_chat_goes_on_at_the_table_when_the_game_begins(sockets):
    table, (nino, giorgi) = await a_waiting_table()
    waiting = await sockets(waiting_path(table), nino)
    await waiting.send(chat("before the game"))
    await said(waiting)
    for number in (2, 3):
        await db(services.seat_add_bot)(
            table_id=table.pk, user=nino, number=number, bot="autopilot"
        )
    game = await db(Game.objects.get)(table=table)
    playing = await sockets(f"/ws/games/{game.pk}/", giorgi)
    history = await playing.receive_until(of_type("chat_history"))
    assert [(m["text"], m["game"]) for m in history["messages"]] == [
        ("before the game", None)
    ]
    # A page still on the waiting socket and one at the game share the room.
    await playing.send(chat("at the table"))
    assert (await said(playing))["text"] == "at the table"
    heard = await said(waiting)
    assert (heard["text"], heard["game"], heard["table"]) == (
        "at the table",
        game.pk,
        table.pk,
    )
    await waiting.send(chat("coming", "c2"))
    assert (await said(playing))["text"] == "coming"
    rows = await db(list)(Message.objects.order_by("id").values_list("text", "game"))
    assert rows == [
        ("before the game", None),
        ("at the table", game.pk),
        ("coming", game.pk),
    ]


async def test_a_player_who_left_the_seat_may_not_write_in_the_players_room(sockets):
    table, (nino, giorgi) = await a_waiting_table()
    socket = await sockets(waiting_path(table), giorgi)
    await db(services.seat_leave)(table_id=table.pk, user=giorgi)
    error = await refused(socket, chat("still here?"))
    assert (error["code"], error["id"]) == ("not_allowed", "c1")
    assert await stored() == []


async def test_a_block_between_seated_players_holds_before_the_game(sockets):
    table, (nino, giorgi) = await a_waiting_table()
    await db(block_create)(blocker_id=nino.pk, blocked_id=giorgi.pk)
    blocker = await sockets(waiting_path(table), nino)
    blocked = await sockets(waiting_path(table), giorgi)
    error = await refused(blocker, chat("hi"))
    assert error["code"] == "you_blocked" and error["names"] == [giorgi.username]
    assert (await refused(blocked, chat("hi")))["code"] == "blocked"
    assert await stored() == []


async def test_who_may_not_open_the_waiting_socket(sockets):
    table, (nino, _) = await a_waiting_table(is_private=True)
    stranger = await sockets(waiting_path(table), await a_player())
    assert await stranger.refusal() == 4403
    nowhere = await sockets("/ws/tables/987654321/", nino)
    assert await nowhere.refusal() == 4404
    anonymous = await sockets(waiting_path(table))
    assert await anonymous.refusal() == 4401
    # A seated player of the private table is let in.
    seated = await sockets(waiting_path(table), nino)
    await seated.send({"type": "ping"})
    assert await seated.receive() == {"type": "pong"}


async def test_a_flood_is_refused_then_closed(sockets, settings):
    settings.PULKA_CHAT_MESSAGES, settings.PULKA_CHAT_FLOOD_CLOSE = 2, 2
    table, (nino, _) = await a_waiting_table()
    socket = await sockets(waiting_path(table), nino)
    for n in range(2):
        await socket.send(chat(f"line {n}", f"c{n}"))
        await said(socket)
    error = await refused(socket, chat("one too many", "c2"))
    assert error["code"] == "chat_flood" and error["id"] == "c2"
    await socket.send(chat("and another", "c3"))
    closed = await socket.comm.receive_output(5)
    while closed["type"] != "websocket.close":
        closed = await socket.comm.receive_output(5)
    assert closed["code"] == 4429
    assert len(await stored()) == 2


# Each bad frame or message, sent over a real WebSocket to uvicorn, and the
# error it gets (the socket stays open, nothing is stored).
BAD = {
    "not JSON": ("{oops", None, "bad_json"),
    "not an object": ('["chat"]', None, "bad_message"),
    "no type": ('{"text": "hi"}', None, "bad_message"),
    "unknown type": ('{"type": "action", "id": "a1"}', None, "unknown_type"),
    "text a number": (json.dumps(chat("x") | {"text": 5}), "c1", "bad_message"),
    "no id": ('{"type": "chat", "text": "hi"}', None, "bad_message"),
    "text and phrase": (
        json.dumps(chat("hi") | {"phrase": "hi"}),
        "c1",
        "bad_message",
    ),
    "empty": (json.dumps(chat("  ")), "c1", "chat_empty"),
    "301 characters": (json.dumps(chat("x" * 301)), "c1", "chat_too_long"),
    "unknown phrase": (
        '{"type": "chat", "id": "c1", "phrase": "gg_ez"}',
        "c1",
        "unknown_phrase",
    ),
    "mute of a string": (
        '{"type": "chat_mute", "id": "m", "user": "1", "muted": true}',
        "m",
        "bad_message",
    ),
    "report of nothing": (
        '{"type": "chat_report", "id": "r", "message": 987654}',
        "r",
        "not_found",
    ),
}


async def test_bad_input_on_a_real_socket_gets_its_error_and_changes_nothing():
    table, (nino, _) = await a_waiting_table()
    cookie = await db(session_cookie)(nino)
    async with serving() as base:
        async with connect(
            base.replace("http", "ws", 1) + waiting_path(table),
            origin=base,
            additional_headers={"Cookie": f"sessionid={cookie}"},
            proxy=None,
            open_timeout=10,
        ) as ws:
            for text, client_id, code in BAD.values():
                await ws.send(text)
                error = json.loads(await ws.recv())
                assert error["type"] == "error" and error["message"]
                assert (error["code"], error["id"]) == (code, client_id), text
            # Still open, and a good message still goes through.
            await ws.send(json.dumps(chat("after all that")))
            heard = json.loads(await ws.recv())
            assert heard["type"] == "chat"
            assert heard["message"]["text"] == "after all that"
    assert await stored() == [("players", "after all that", "")]
    assert await db(Report.objects.count)() == 0
    assert await db(PersonalMute.objects.count)() == 0
