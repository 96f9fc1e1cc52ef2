"""The lobby's chat: one room on the lobby's socket, which still answers
everything else with a pong (tests/games/test_odd_frames.py)."""

from __future__ import annotations

import pytest

from tests.chat.helpers import a_player, chat, refused, said, stored
from tests.games.helpers import of_type

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

LOBBY = "/ws/lobby/"


async def test_signed_in_players_chat_and_anonymous_visitors_read(sockets):
    nino, giorgi = await a_player(), await a_player()
    first, second = await sockets(LOBBY, nino), await sockets(LOBBY, giorgi)
    visitor = await sockets(LOBBY)
    await first.send(chat("anyone for a game of nines?"))
    for socket in (first, second, visitor):
        heard = await said(socket)
        assert heard["text"] == "anyone for a game of nines?"
        assert (heard["room"], heard["game"]) == ("lobby", None)
        assert heard["author"]["id"] == nino.pk
    await second.send({"type": "chat", "id": "c2", "phrase": "hi"})
    assert (await said(first))["phrase"] == "hi"
    assert await stored() == [
        ("lobby", "anyone for a game of nines?", ""),
        ("lobby", "", "hi"),
    ]


async def test_an_anonymous_visitor_may_not_write(sockets):
    visitor = await sockets(LOBBY)
    error = await refused(visitor, chat("hello"))
    assert error["code"] == "not_allowed" and error["id"] == "c1"
    assert await stored() == []


async def test_the_lobby_sends_its_history_and_still_pongs(sockets):
    nino = await a_player()
    first = await sockets(LOBBY, nino)
    await first.send(chat("first"))
    await said(first)
    later = await sockets(LOBBY)
    history = await later.receive_until(of_type("chat_history"))
    assert history["room"] == "lobby"
    assert [m["text"] for m in history["messages"]] == ["first"]
    await later.send({"type": "ping"})
    assert await later.receive() == {"type": "pong"}
    await later.comm.send_to(text_data='{"type": "hello"}')
    assert await later.receive() == {"type": "pong"}


async def test_a_bad_lobby_chat_message_gets_an_error(sockets):
    socket = await sockets(LOBBY, await a_player())
    assert (await refused(socket, {"type": "chat", "id": "c1", "text": 5}))[
        "code"
    ] == "bad_message"
    assert (await refused(socket, chat("x" * 301)))["code"] == "chat_too_long"
    assert await stored() == []
