"""Driving the chat in tests: tables, sockets, and what was said."""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from chat.models import Message
from config.asgi import application
from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import (
    SITE_HEADERS,
    Socket,
    of_type,
    session_cookie,
    start_table,
)

db = database_sync_to_async


async def open_at(path: str, user=None) -> Socket:
    """A socket at ``path``, signed in as ``user`` (None: anonymous)."""
    headers = list(SITE_HEADERS)
    if user is not None:
        headers.append((b"cookie", await db(session_cookie)(user)))
    socket = Socket(WebsocketCommunicator(application, path, headers=headers))
    socket.connected, socket.close_code = await socket.comm.connect(timeout=5)
    assert socket.connected
    return socket


@db
def a_match(**kwargs) -> tuple[Game, list]:
    """A Japanese match of two people, just dealt, and its players."""
    table, users = start_table("japanese", {"target": 11}, people=2, **kwargs)
    return Game.objects.get(table=table), users


@db
def a_player():
    return UserFactory()


def table_path(game: Game) -> str:
    return f"/ws/games/{game.pk}/"


def chat(text: str, client_id: str = "c1") -> dict:
    return {"type": "chat", "id": client_id, "text": text}


async def said(socket: Socket, timeout: float = 5) -> dict:
    """The next chat message the socket hears (skipping the game's frames)."""
    return (await socket.receive_until(of_type("chat"), timeout))["message"]


async def refused(socket: Socket, message: dict | str) -> dict:
    """Send ``message`` (a frame's text if a string); the error it gets."""
    if isinstance(message, str):
        await socket.comm.send_to(text_data=message)
    else:
        await socket.send(message)
    return await socket.receive_until(of_type("error"))


def heard_since(socket: Socket, start: int) -> list[dict]:
    """The chat messages among the frames the socket kept from ``start``."""
    frames = [json.loads(text) for text in socket.frames[start:]]
    return [frame["message"] for frame in frames if frame["type"] == "chat"]


@db
def stored() -> list[tuple[str, str, str]]:
    """Every message stored: (room, text, phrase), in order."""
    return list(Message.objects.order_by("id").values_list("room", "text", "phrase"))
