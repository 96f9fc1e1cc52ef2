"""The chat's part of a live socket: a mixin the table's and the lobby's
sockets take (``chat.sockets``, riding on them). The chat never goes
through a game's owner: a socket saves its player's message through
``chat.services`` and the message reaches the room's sockets through the
room's channel-layer group, after commit. The frames are in
docs/protocol.md, the rules in docs/chat.md.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from chat import selectors, services
from chat.errors import ChatFlood, Muted, YouBlocked
from chat.messages import (
    ChatClientIn,
    ChatHistory,
    ChatIn,
    ChatMuted,
    ChatMuteIn,
    ChatPosted,
    ChatReported,
    ChatReportIn,
    ChatSaid,
)
from chat.selectors import Room
from common.database_threads import off_the_loop
from common.errors import ApplicationError
from common.messages import Error, decode
from games import socket_limits

if TYPE_CHECKING:
    from games.consumers.sockets import UserSocketMixin as _UserSocket
else:
    _UserSocket = object

# How long a socket trusts what it read of whom its reader hides: a block
# made elsewhere reaches it within this (a mute of the reader's own, at once).
HIDDEN_FOR_SECONDS = 10.0

db = off_the_loop
logger = logging.getLogger(__name__)


class ChatSocketMixin(_UserSocket):
    """A socket in one chat room (``chat_room``), reading as ``user_id``
    (None: anonymous, reads only). Needs ``close`` and ``channel_layer`` of
    a consumer, and ``send_message``, ``session_key`` and ``leave_group`` of
    a ``games.consumers.sockets.UserSocketMixin``. Its socket joins the
    room's group (``chat.messages.CHAT_ROOM``)."""

    chat_room: Room | None = None
    chat_reader: int | None = None
    chat_hidden_ids: frozenset = frozenset()
    chat_hidden_at = 0.0
    # ``chat_flood`` refusals since a message last passed (a persistent
    # flood closes the socket, as a move flood does).
    chat_floods = 0
    # The chat's work waiting its turn, and the task doing it while there
    # is any (``chat_in_turn``).
    chat_work: deque[Callable[[], Awaitable[None]]] | None = None
    chat_worker: asyncio.Task[None] | None = None

    def chat_in_turn(self, work: Callable[[], Awaitable[None]]) -> None:
        """Do ``work`` after the chat's earlier work, beside the socket's
        reading rather than in it. The chat's work waits on the database, for
        one of the pool's connections first: done in the socket's turn, a
        history, post or mute that waited held up the frames behind it, the
        pings among them, and under load the socket's owner closed it as
        silent (4408)."""
        if self.chat_work is None:
            self.chat_work = deque()
        self.chat_work.append(work)
        if self.chat_worker is None or self.chat_worker.done():
            self.chat_worker = asyncio.create_task(self._chat_working(self.chat_work))

    async def _chat_working(self, work: deque[Callable[[], Awaitable[None]]]) -> None:
        # Ends when nothing is left, so that no task waits for the socket's
        # next chat message after the socket is gone.
        while work:
            try:
                await work.popleft()()
            except Exception:  # one failed piece stops neither the chat nor the socket
                logger.exception("socket %s: chat work failed", self.channel_name)

    async def chat_join(self, room: Room, reader_id: int | None) -> None:
        """Join the room; its history (and whom the reader muted) follows
        unless there is nothing to tell."""
        self.chat_room, self.chat_reader = room, reader_id
        await self.channel_layer.group_add(room.group, self.channel_name)
        self.chat_in_turn(self._send_history)

    async def _send_history(self) -> None:
        room = self.chat_room
        if room is None:
            return  # the socket left before its turn came
        try:
            messages, muted = await db(self._history)(room)
        except DatabaseError:
            # The page still works without its chat's past (the lobby's
            # list, a finished game's stored sync); the next connection
            # brings it.
            logger.warning(
                "socket %s: no chat history, the database failed", self.channel_name
            )
            return
        if messages or muted:
            await self.send_message(ChatHistory(room.kind, messages, muted))

    def _history(self, room: Room):
        self.chat_hidden_ids = frozenset(selectors.hidden_authors(self.chat_reader))
        self.chat_hidden_at = time.monotonic()
        messages = selectors.room_messages(room, self.chat_reader)
        return messages, selectors.muted_players(self.chat_reader)

    async def chat_leave(self) -> None:
        if self.chat_worker is not None:
            await self.chat_worker  # what was sent before the close is still done
        if self.chat_room is not None:
            room, self.chat_room = self.chat_room, None
            await self.leave_group(room.group)

    # Client messages

    async def chat_receive(self, message: ChatClientIn) -> None:
        """One of the chat's messages (``chat.messages``), read by the
        socket's one parse, handled in the chat's turn."""
        self.chat_in_turn(lambda: self._chat_handle(message))

    async def _chat_handle(self, message: ChatClientIn) -> None:
        client_id = message.id
        if self.chat_room is None or self.chat_reader is None:
            await self.chat_error(client_id, "not_allowed", "sign in to chat")
            return
        try:
            match message:
                case ChatIn():
                    await self.on_chat(message)
                case ChatMuteIn():
                    await self.on_chat_mute(message)
                case ChatReportIn():
                    await self.on_chat_report(message)
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

    async def on_chat(self, message: ChatIn) -> None:
        room, reader = self._chatting()
        await db(services.message_post)(
            author_id=reader,
            room=room,
            text=message.text,
            phrase=message.phrase,
            now=timezone.now(),
        )
        self.chat_floods = 0

    async def on_chat_mute(self, message: ChatMuteIn) -> None:
        await db(services.personal_mute_set)(
            user_id=self._chatting()[1],
            muted_id=message.user,
            muted=message.muted,
            now=timezone.now(),
        )
        await self.send_message(ChatMuted(message.id, message.user, message.muted))

    async def on_chat_report(self, message: ChatReportIn) -> None:
        await db(services.report_create)(
            reporter_id=self._chatting()[1],
            message_id=message.message,
            reason=message.reason,
            now=timezone.now(),
        )
        await self.send_message(ChatReported(message.id, message.message))

    async def chat_refused(self, client_id, error: ApplicationError) -> None:
        until = error.until.isoformat() if isinstance(error, Muted) else None
        names = error.names if isinstance(error, YouBlocked) else None
        await self.send_message(Error(client_id, error.code, str(error), until, names))
        if isinstance(error, ChatFlood):
            self.chat_floods += 1
            if self.chat_floods >= settings.PULKA_CHAT_FLOOD_CLOSE:
                await socket_limits.pause_session(self.session_key)
                await self.close(
                    code=socket_limits.CLOSE_TOO_MANY_MESSAGES,
                    reason="too many messages",
                )

    async def chat_error(self, client_id, code: str, message: str) -> None:
        await self.send_message(Error(client_id, code, message))

    # Group messages

    async def chat_said(self, event) -> None:
        """The room's ``ChatPosted``: shown unless the reader hides its
        author (which may need the database: in the chat's turn)."""
        message = decode(ChatPosted, event).message
        self.chat_in_turn(lambda: self._show(message))

    async def _show(self, message) -> None:
        if not await self.chat_hides(message["author"]["id"]):
            await self.send_message(ChatSaid(message))

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
        self.chat_in_turn(self.chat_reload_hidden)
