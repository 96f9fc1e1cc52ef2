"""The table's chat over real sockets: two rooms, history, and every
refusal (docs/chat.md, docs/protocol.md)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from chat.models import ChatMute, Message, PersonalMute, Report
from social.services import block_create
from tests.chat.helpers import (
    a_match,
    a_player,
    chat,
    db,
    heard_since,
    refused,
    said,
    stored,
    table_path,
)
from tests.games.helpers import of_type, play_out

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def seated_and_watching(sockets, *, watchers=1):
    """A match's two players and ``watchers`` spectators, connected."""
    game, users = await a_match()
    path = table_path(game)
    first, second = [await sockets(path, user) for user in users]
    lookers = [await sockets(path, await a_player()) for _ in range(watchers)]
    for socket in (first, second, *lookers):
        await socket.receive_until(of_type("sync"))
    return game, users, first, second, lookers


async def test_two_players_chat_both_ways(sockets):
    game, (nino, giorgi), first, second, _ = await seated_and_watching(
        sockets, watchers=0
    )
    await first.send(chat("gamarjoba"))
    heard = await said(second)
    assert heard["text"] == "gamarjoba" and heard["phrase"] == ""
    assert heard["author"] == {"id": nino.pk, "name": nino.username}
    assert (heard["room"], heard["game"]) == ("players", game.pk)
    assert (await said(first))["id"] == heard["id"]  # the author hears it too

    await second.send({"type": "chat", "id": "c2", "phrase": "good_luck"})
    back = await said(first)
    assert (back["text"], back["phrase"]) == ("", "good_luck")
    assert back["author"]["id"] == giorgi.pk
    assert await stored() == [
        ("players", "gamarjoba", ""),
        ("players", "", "good_luck"),
    ]


async def test_a_spectators_message_never_reaches_a_player(sockets):
    _, _, first, second, (watcher, other_watcher) = await seated_and_watching(
        sockets, watchers=2
    )
    start = [len(first.frames), len(second.frames)]
    await watcher.send(chat("play the ace!"))
    assert (await said(other_watcher))["room"] == "spectators"
    assert (await said(watcher))["text"] == "play the ace!"
    # The players' own message comes after the spectator's: had that one
    # reached their sockets, it would have come first.
    await first.send(chat("hi"))
    for socket, begin in zip((first, second), start, strict=True):
        assert (await said(socket))["text"] == "hi"
        assert [m["text"] for m in heard_since(socket, begin)] == ["hi"]
    # Nor does the players' message reach the spectators.
    await watcher.send(chat("again", "c2"))
    assert (await said(other_watcher))["text"] == "again"
    assert [m["text"] for m in heard_since(other_watcher, 0)] == [
        "play the ace!",
        "again",
    ]


async def test_a_socket_gets_its_rooms_history_on_connecting(sockets):
    game, users, first, _, (watcher,) = await seated_and_watching(sockets)
    await first.send(chat("one"))
    await first.send({"type": "chat", "id": "c2", "phrase": "oops"})
    await watcher.send(chat("from the rail"))
    await said(watcher)
    for _ in range(2):
        await said(first)

    again = await sockets(table_path(game), users[1])
    history = await again.receive_until(of_type("chat_history"))
    assert history["room"] == "players" and history["muted"] == []
    assert [(m["text"], m["phrase"]) for m in history["messages"]] == [
        ("one", ""),
        ("", "oops"),
    ]
    late = await sockets(table_path(game), await a_player())
    rail = await late.receive_until(of_type("chat_history"))
    assert [m["text"] for m in rail["messages"]] == ["from the rail"]


async def test_an_empty_room_sends_no_history(sockets):
    game, users = await a_match()
    socket = await sockets(table_path(game), users[0])
    await socket.receive_until(of_type("presence"))
    assert await socket.nothing_more()


BAD = {
    "empty": (chat(""), "chat_empty"),
    "only spaces": (chat("   \t "), "chat_empty"),
    "only control characters": (chat("\x00\x07\u202e\x1b"), "chat_empty"),
    "301 characters": (chat("x" * 301), "chat_too_long"),
    "unknown phrase": (
        {"type": "chat", "id": "c1", "phrase": "gg_ez"},
        "unknown_phrase",
    ),
    "no id": ({"type": "chat", "text": "hi"}, "bad_message"),
    "id not text": ({"type": "chat", "id": 5, "text": "hi"}, "bad_message"),
    "id too long": ({"type": "chat", "id": "x" * 65, "text": "hi"}, "bad_message"),
    "text a number": ({"type": "chat", "id": "c1", "text": 5}, "bad_message"),
    "text a list": ({"type": "chat", "id": "c1", "text": ["hi"]}, "bad_message"),
    "text null": ({"type": "chat", "id": "c1", "text": None}, "bad_message"),
    "neither": ({"type": "chat", "id": "c1"}, "bad_message"),
    "both": ({"type": "chat", "id": "c1", "text": "hi", "phrase": "hi"}, "bad_message"),
    "phrase an object": ({"type": "chat", "id": "c1", "phrase": {}}, "bad_message"),
    "mute without a user": (
        {"type": "chat_mute", "id": "m", "muted": True},
        "bad_message",
    ),
    "mute of a string": (
        {"type": "chat_mute", "id": "m", "user": "1", "muted": True},
        "bad_message",
    ),
    "mute not boolean": (
        {"type": "chat_mute", "id": "m", "user": 1, "muted": 1},
        "bad_message",
    ),
    "mute of nobody": (
        {"type": "chat_mute", "id": "m", "user": 987654, "muted": True},
        "not_found",
    ),
    "report of nothing": (
        {"type": "chat_report", "id": "r", "message": 987654},
        "not_found",
    ),
    "report a string": (
        {"type": "chat_report", "id": "r", "message": "1"},
        "bad_message",
    ),
    "report reason a number": (
        {"type": "chat_report", "id": "r", "message": 1, "reason": 5},
        "bad_message",
    ),
}


@pytest.mark.parametrize(("message", "code"), BAD.values(), ids=BAD.keys())
async def test_a_bad_chat_message_is_refused_and_stores_nothing(sockets, message, code):
    game, users = await a_match()
    socket = await sockets(table_path(game), users[0])
    await socket.receive_until(of_type("sync"))
    error = await refused(socket, message)
    assert error["code"] == code and error["message"]
    assert error["id"] == (
        message.get("id") if message.get("id") in ("c1", "m", "r") else None
    )
    assert await stored() == []
    assert await db(Report.objects.count)() == 0
    assert await db(PersonalMute.objects.count)() == 0
    # The socket is still open and still plays.
    await socket.send({"type": "ping"})
    await socket.receive_until(of_type("pong"))


async def test_control_characters_are_stripped(sockets):
    game, users = await a_match()
    socket = await sockets(table_path(game), users[0])
    await socket.send(chat("\u202egood\x00 \n game\x07  "))
    assert (await said(socket))["text"] == "good   game"


async def test_a_flood_is_refused_then_closed(sockets, settings):
    settings.PULKA_CHAT_MESSAGES, settings.PULKA_CHAT_FLOOD_CLOSE = 3, 3
    game, users = await a_match()
    socket = await sockets(table_path(game), users[0])
    for n in range(3):
        await socket.send(chat(f"line {n}", f"c{n}"))
        await said(socket)
    error = await refused(socket, chat("one too many", "c3"))
    assert error["code"] == "chat_flood" and error["id"] == "c3"
    await refused(socket, chat("and another", "c4"))
    assert len(await stored()) == 3
    # The third refusal in a row closes the socket, as a move flood does.
    await socket.send(chat("and another", "c5"))
    while True:
        output = await socket.comm.receive_output(5)
        if output["type"] == "websocket.close":
            break
    assert output["code"] == 4429
    assert len(await stored()) == 3


async def test_a_muted_player_is_refused_with_until(sockets):
    game, users = await a_match()
    until = timezone.now() + timedelta(hours=1)
    await db(ChatMute.objects.create)(
        user=users[0], until=until, reason="x", created_at=timezone.now()
    )
    socket = await sockets(table_path(game), users[0])
    error = await refused(socket, chat("hello"))
    assert error["code"] == "muted"
    assert error["until"] == until.isoformat()
    assert await stored() == []


async def test_a_blocked_player_cannot_write_into_the_players_room(sockets):
    game, (nino, giorgi) = await a_match()
    await db(block_create)(blocker_id=giorgi.pk, blocked_id=nino.pk)
    socket = await sockets(table_path(game), nino)
    error = await refused(socket, chat("hello"))
    assert error["code"] == "blocked"
    assert "giorgi" not in error["message"] and "names" not in error
    assert await stored() == []


async def test_the_blocker_is_told_whom_they_blocked(sockets):
    game, (nino, giorgi) = await a_match()
    await db(block_create)(blocker_id=nino.pk, blocked_id=giorgi.pk)
    socket = await sockets(table_path(game), nino)
    error = await refused(socket, chat("hello"))
    assert error["code"] == "you_blocked"
    assert error["names"] == [giorgi.username]
    assert await stored() == []


async def test_a_blocked_spectator_is_not_delivered_to_the_blocker(sockets):
    game, _ = await a_match()
    rude, blocker, bystander = [await a_player() for _ in range(3)]
    await db(block_create)(blocker_id=blocker.pk, blocked_id=rude.pk)
    path = table_path(game)
    theirs, mine, watching = [
        await sockets(path, u) for u in (rude, blocker, bystander)
    ]
    begin = len(mine.frames)
    await theirs.send(chat("you are bad"))
    assert (await said(watching))["text"] == "you are bad"
    await watching.send(chat("calm down", "c2"))
    assert (await said(mine))["text"] == "calm down"
    assert [m["text"] for m in heard_since(mine, begin)] == ["calm down"]
    # Either way: the blocked one does not read the blocker either.
    await mine.send(chat("go away", "c3"))
    await said(watching)
    await watching.send(chat("stop it", "c4"))
    assert (await said(theirs))["text"] == "you are bad"
    assert (await said(theirs))["text"] == "calm down"
    assert (await said(theirs))["text"] == "stop it"


async def test_a_personal_mute_holds_live_and_in_the_history(sockets):
    game, (nino, giorgi) = await a_match()
    path = table_path(game)
    first, second = await sockets(path, nino), await sockets(path, giorgi)
    await first.send(chat("before"))
    await said(second)
    await second.send({"type": "chat_mute", "id": "m1", "user": nino.pk, "muted": True})
    answer = await second.receive_until(of_type("chat_muted"))
    assert answer == {"type": "chat_muted", "id": "m1", "user": nino.pk, "muted": True}
    begin = len(second.frames)
    await first.send(chat("after", "c2"))
    await said(first)
    await second.send(chat("mine", "c3"))
    assert (await said(second))["text"] == "mine"
    assert [m["text"] for m in heard_since(second, begin)] == ["mine"]
    # On another device too, history included; the muted player is listed.
    other = await sockets(path, giorgi)
    history = await other.receive_until(of_type("chat_history"))
    assert [m["text"] for m in history["messages"]] == ["mine"]
    assert history["muted"] == [{"id": nino.pk, "name": nino.username}]
    # Unmuted, nino is heard again.
    await second.send(
        {"type": "chat_mute", "id": "m2", "user": nino.pk, "muted": False}
    )
    await second.receive_until(of_type("chat_muted"))
    await first.send(chat("heard again", "c4"))
    assert (await said(second))["text"] == "heard again"


async def test_a_report_keeps_the_conversation(sockets):
    game, (nino, giorgi) = await a_match()
    path = table_path(game)
    first, second = await sockets(path, nino), await sockets(path, giorgi)
    for n, text in enumerate(["hi", "you fool", "what?"]):
        await (first if n != 2 else second).send(chat(text, f"c{n}"))
        await said(second)
    target = await db(Message.objects.get)(text="you fool")
    await second.send(
        {"type": "chat_report", "id": "r1", "message": target.pk, "reason": "rude"}
    )
    answer = await second.receive_until(of_type("chat_reported"))
    assert answer == {"type": "chat_reported", "id": "r1", "message": target.pk}
    report = await db(Report.objects.get)()
    assert (report.reporter_id, report.message_id, report.reason) == (
        giorgi.pk,
        target.pk,
        "rude",
    )
    assert [row["text"] for row in report.conversation] == ["hi", "you fool", "what?"]
    # A spectator cannot report what they never saw.
    watcher = await sockets(path, await a_player())
    error = await refused(
        watcher, {"type": "chat_report", "id": "r2", "message": target.pk}
    )
    assert error["code"] == "not_found"


async def test_the_word_filter_masks_and_mutes_a_repeat_offender(sockets, settings):
    settings.PULKA_CHAT_OFFENCES = 2
    game, users = await a_match()
    socket = await sockets(table_path(game), users[0])
    await socket.send(chat("oh SHIT, what a hand"))
    assert (await said(socket))["text"] == "oh ****, what a hand"
    await socket.send(chat("сука", "c2"))
    assert (await said(socket))["text"] == "****"
    error = await refused(socket, chat("sorry", "c3"))
    assert error["code"] == "muted"
    mute = await db(ChatMute.objects.get)()
    assert mute.by_id is None and mute.reason == "word filter"


async def test_the_games_frames_are_untouched(sockets):
    """Chat between two moves: the game's versions go on as before."""
    game, users = await a_match()
    socket = await sockets(table_path(game), users[0])
    sync = await socket.receive_until(of_type("sync"))
    await socket.send(chat("hi"))
    await said(socket)
    await socket.send({"type": "sync", "version": sync["version"]})
    again = await socket.receive_until(of_type("sync"))
    assert again["version"] == sync["version"]
    assert not any(json.loads(f)["type"] == "update" for f in socket.frames)


async def test_after_the_game_each_room_goes_on(sockets):
    game, _, first, second, (watcher,) = await seated_and_watching(sockets)
    await db(play_out)(game.pk)
    await first.send(chat("gg"))
    assert (await said(second))["text"] == "gg"
    assert (await said(first))["text"] == "gg"
    await watcher.send(chat("well played both", "c2"))
    assert (await said(watcher))["room"] == "spectators"
    await second.send(chat("thanks", "c3"))
    assert (await said(first))["text"] == "thanks"
    assert [m["text"] for m in heard_since(first, 0)] == ["gg", "thanks"]


async def test_a_database_that_refuses_the_message_leaves_the_socket_open(sockets):
    game, users = await a_match()
    socket = await sockets(table_path(game), users[0])
    await db(_refuse_chat)(True)
    try:
        error = await refused(socket, chat("hello"))
    finally:
        await db(_refuse_chat)(False)
    assert error["code"] == "unavailable" and error["id"] == "c1"
    await socket.send(chat("again", "c2"))
    assert (await said(socket))["text"] == "again"


def _refuse_chat(refused_: bool) -> None:
    with connection.cursor() as cursor:
        if refused_:
            cursor.execute(
                "CREATE FUNCTION test_refuse_chat() RETURNS trigger LANGUAGE plpgsql"
                " AS 'BEGIN RAISE EXCEPTION ''no space'' USING ERRCODE = ''disk_full'';"
                " END'"
            )
            cursor.execute(
                "CREATE TRIGGER test_refuse_chat BEFORE INSERT ON chat_message"
                " FOR EACH ROW EXECUTE FUNCTION test_refuse_chat()"
            )
        else:
            cursor.execute("DROP FUNCTION IF EXISTS test_refuse_chat() CASCADE")
