"""The chat's part of a live socket: a mixin the table's and the lobby's
sockets take (``chat.sockets``). The chat never goes through a game's
owner: a socket saves its player's message through ``chat.services`` and the
message reaches the room's sockets through the room's channel-layer group,
after commit. The frames are in docs/protocol.md, the rules in docs/chat.md.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, TypeGuard

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from chat import selectors, services
from chat.errors import ChatFlood, Muted, YouBlocked
from chat.selectors import Room
from common.errors import ApplicationError
from games import socket_limits

if TYPE_CHECKING:
    from games.consumers.sockets import UserSocketMixin as _UserSocket
else:
    _UserSocket = object

# The client's chat messages; anything else is the socket's own.
CHAT_TYPES = ("chat", "chat_mute", "chat_report")
# How long a socket trusts what it read of whom its reader hides: a block
# made elsewhere reaches it within this (a mute of the reader's own, at once).
HIDDEN_FOR_SECONDS = 10.0

db = database_sync_to_async
logger = logging.getLogger(__name__)


def _valid_id(value) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 64


def _id_of(message: dict):
    value = message.get("id")
    return value if _valid_id(value) else None


def _positive_int(value: object) -> TypeGuard[int]:
    return type(value) is int and value > 0


class ChatSocketMixin(_UserSocket):
    """A socket in one chat room (``chat_room``), reading as ``user_id``
    (None: anonymous, reads only). Needs ``send_json``, ``close`` and
    ``channel_layer`` of a consumer, and ``session_key`` and ``leave_group``
    of a ``games.consumers.sockets.UserSocketMixin``."""

    chat_room: Room | None = None
    chat_reader: int | None = None
    chat_hidden_ids: frozenset = frozenset()
    chat_hidden_at = 0.0
    # ``chat_flood`` refusals since a message last passed (a persistent
    # flood closes the socket, as a move flood does).
    chat_floods = 0

    async def chat_join(self, room: Room, reader_id: int | None) -> None:
        """Join the room, and send its history (and whom the reader muted)
        unless there is nothing to tell."""
        self.chat_room, self.chat_reader = room, reader_id
        await self.channel_layer.group_add(room.group, self.channel_name)
        try:
            messages, muted = await db(self._history)()
        except DatabaseError:
            # The page still works without its chat's past (the lobby's
            # list, a finished game's stored sync); the next connection
            # brings it.
            logger.warning(
                "socket %s: no chat history, the database failed", self.channel_name
            )
            return
        if messages or muted:
            await self.send_json(
                {
                    "type": "chat_history",
                    "room": room.kind,
                    "messages": messages,
                    "muted": muted,
                }
            )

    def _history(self):
        self.chat_hidden_ids = frozenset(selectors.hidden_authors(self.chat_reader))
        self.chat_hidden_at = time.monotonic()
        messages = selectors.room_messages(self.chat_room, self.chat_reader)
        return messages, selectors.muted_players(self.chat_reader)

    async def chat_leave(self) -> None:
        if self.chat_room is not None:
            room, self.chat_room = self.chat_room, None
            await self.leave_group(room.group)

    # Client messages

    async def chat_receive(self, message: dict) -> None:
        handler = {
            "chat": self.on_chat,
            "chat_mute": self.on_chat_mute,
            "chat_report": self.on_chat_report,
        }[message["type"]]
        client_id = _id_of(message)
        if self.chat_room is None or self.chat_reader is None:
            await self.chat_error(client_id, "not_allowed", "sign in to chat")
            return
        try:
            await handler(client_id, message)
        except ApplicationError as error:
            await self.chat_refused(client_id, error)
        except DatabaseError:
            # The database is down or full: nothing was stored, the socket
            # stays open (the game's moves answer the same way).
            await self.chat_error(
                client_id, "unavailable", "the chat could not be saved just now"
            )

    def _chatting(self) -> tuple[Room, int]:
        """The room and the signed-in reader, for a message's handler
        (``chat_receive`` let only such a socket's messages through)."""
        assert self.chat_room is not None and self.chat_reader is not None
        return self.chat_room, self.chat_reader

    async def on_chat(self, client_id, message: dict) -> None:
        text, phrase = message.get("text"), message.get("phrase")
        shapes_ok = (
            _valid_id(message.get("id"))
            and (text is None or isinstance(text, str))
            and (phrase is None or isinstance(phrase, str))
            and (text is None) != (phrase is None)
        )
        if not shapes_ok:
            await self.chat_error(
                client_id,
                "bad_message",
                "a chat message has a string 'id' and either a 'text' or a 'phrase'",
            )
            return
        room, reader = self._chatting()
        await db(services.message_post)(
            author_id=reader,
            room=room,
            text=text,
            phrase=phrase,
            now=timezone.now(),
        )
        self.chat_floods = 0

    async def on_chat_mute(self, client_id, message: dict) -> None:
        user, muted = message.get("user"), message.get("muted")
        if not _positive_int(user) or type(muted) is not bool:
            await self.chat_error(
                client_id,
                "bad_message",
                "'user' must be a player's id, 'muted' true or false",
            )
            return
        await db(services.personal_mute_set)(
            user_id=self._chatting()[1], muted_id=user, muted=muted, now=timezone.now()
        )
        await self.send_json(
            {"type": "chat_muted", "id": client_id, "user": user, "muted": muted}
        )

    async def on_chat_report(self, client_id, message: dict) -> None:
        target, reason = message.get("message"), message.get("reason", "")
        if not _positive_int(target) or not isinstance(reason, str):
            await self.chat_error(
                client_id, "bad_message", "'message' must be a message's id"
            )
            return
        await db(services.report_create)(
            reporter_id=self._chatting()[1],
            message_id=target,
            reason=reason,
            now=timezone.now(),
        )
        await self.send_json(
            {"type": "chat_reported", "id": client_id, "message": target}
        )

    async def chat_refused(self, client_id, error: ApplicationError) -> None:
        extra = {}
        if isinstance(error, Muted):
            extra["until"] = error.until.isoformat()
        if isinstance(error, YouBlocked):
            extra["names"] = error.names
        await self.chat_error(client_id, error.code, str(error), **extra)
        if isinstance(error, ChatFlood):
            self.chat_floods += 1
            if self.chat_floods >= settings.PULKA_CHAT_FLOOD_CLOSE:
                await socket_limits.pause_session(self.session_key)
                await self.close(
                    code=socket_limits.CLOSE_TOO_MANY_MESSAGES,
                    reason="too many messages",
                )

    async def chat_error(self, client_id, code: str, message: str, **extra) -> None:
        frame = {"type": "error", "id": client_id, "code": code, "message": message}
        await self.send_json(frame | extra)

    # Group messages

    async def chat_said(self, event) -> None:
        message = event["message"]
        if await self.chat_hides(message["author"]["id"]):
            return
        await self.send_json({"type": "chat", "message": message})

    async def chat_hides(self, author_id: int) -> bool:
        if time.monotonic() - self.chat_hidden_at > HIDDEN_FOR_SECONDS:
            await self.chat_reload_hidden()
        return author_id in self.chat_hidden_ids

    async def chat_reload_hidden(self) -> None:
        try:
            hidden = await db(selectors.hidden_authors)(self.chat_reader)
        except DatabaseError:
            return  # keep what was read last; tried again on the next message
        self.chat_hidden_ids = frozenset(hidden)
        self.chat_hidden_at = time.monotonic()

    async def chat_hidden(self, event) -> None:
        """The reader muted or unmuted someone (on any of their sockets)."""
        await self.chat_reload_hidden()
