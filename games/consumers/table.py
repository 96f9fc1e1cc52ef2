"""The live table over WebSocket: read each frame once, hand it to the
game's owner.

A table's socket attaches to its game's owner (``games.live``), in this
process or another: the owner sends it everything about the game, each
message built for the socket's audience (its seat, or the spectators). The
socket reads a frame for the owner into a command (``games.live.commands``)
and passes it on. The protocol is written down in docs/protocol.md.

The socket closes with its session (``sockets.UserSocketMixin``). That
message may be lost with Redis, so while Redis is in doubt a table socket
also reads the session from the database before it passes a move on, and
closes instead if the session has ended.
"""

from __future__ import annotations

import time
from typing import ClassVar

import psycopg
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.sockets import CLOSE_FORBIDDEN, retries, session_ended
from common.database_threads import off_the_loop
from common.messages import ClientIn, Error, Pong, Refused, decode, parse
from games import messages, selectors
from games.consumers.sockets import (
    CLOSE_NOT_FOUND,
    DirectDispatchMixin,
    UserSocketMixin,
    read_frame,
)
from games.live import commands
from games.live.broadcast import json_text
from games.live.commands import Heard, OwnerCommand, PlayerCommand, Sync
from games.live.hall import hall
from games.rematch_socket import RematchSocketMixin

# How often a socket's pings are passed on to its game's owner.
HEARD_EVERY_SECONDS = 2.0


class GameConsumer(
    DirectDispatchMixin,
    UserSocketMixin,
    RematchSocketMixin,
    AsyncJsonWebsocketConsumer,
):
    """One socket at a live table: read, hand to the game's owner.

    Everything the socket is sent about the game (syncs, updates, presence,
    answers) comes from the owner (``games.live``), in this process or
    through the channel layer (``table_text``). What rides on the socket
    beside the game comes in through ``joined``, ``leaving`` and
    ``on_message`` (``riders``): the table's chat (``chat.sockets``) never
    goes through the owner. The rematch
    of a finished game is the socket's own business (``RematchSocketMixin``).
    """

    GROUPS = (*UserSocketMixin.GROUPS, messages.REMATCH, messages.TABLE_OWNER)
    # What the page may send (what rides on the socket adds its own:
    # ``riders``).
    TAKES: ClassVar[dict[str, type[ClientIn]]] = dict(messages.TABLE_TAKES)

    game_id: int
    table_id: int
    seat: int | None = None
    protocol = 1  # the version it speaks (``messages.PROTOCOLS``)
    attached = False
    heard_told_at = 0.0

    async def connect(self) -> None:
        if not await self.open_signed_in(self.may_watch):
            return
        self.protocol = messages.protocol_asked(self.scope["query_string"])
        # The relay takes the socket's commands to its game's owner, in this
        # process or another.
        self.hall = await hall()
        self.relay = self.hall.relay
        self.attached = await self.relay.attach(self.game_id, self, self.seat, None)
        if not self.attached:
            await self.send_stored_sync(None)
        await self.joined()
        # A game its owner plays is not over: no offer to read (and no wait
        # for the database while the socket's pings queue behind it).
        await self.join_rematch(read_offer=not self.attached)

    async def joined(self) -> None:
        """The socket is open and attached to its game: for what rides on
        the socket beside the game (the table's chat, ``chat.sockets``)."""

    async def leaving(self) -> None:
        """The socket is closing, before it leaves its groups and game."""

    async def may_watch(self, user) -> bool:
        """Whether the game is there and the user may see it (refused with
        4404 or 4403 if not); the user's seat at it, if any."""
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        access = await off_the_loop(selectors.game_access)(self.game_id, user)
        if access is None:
            await self.refuse(CLOSE_NOT_FOUND, "no such game")
            return False
        if not access.may_watch:
            await self.refuse(CLOSE_FORBIDDEN, "private table")
            return False
        self.table_id, self.seat = access.table_id, access.seat
        return True

    async def disconnect(self, code):
        try:
            await self.leaving()
            await self.leave_user_group()
        finally:
            if self.attached:
                self.attached = False
                await self.relay.detach(self.game_id, self)
            await self.leave_rematch()

    async def receive(self, text_data=None, bytes_data=None):
        # Parsed here rather than in receive_json, so that a malformed frame
        # gets an error message instead of closing the socket.
        try:
            message = parse(read_frame(text_data, bytes_data), self.TAKES)
        except Refused as refusal:
            await self.send_message(refusal.error())
            return
        await self.on_message(message)

    # Client messages

    async def on_message(self, message: ClientIn) -> None:
        """The one dispatch of what the page sent: the rematch is the
        socket's own, the rest goes to the game's owner."""
        match message:
            case messages.RematchIn():
                await self.on_rematch(message)
            case messages.RematchDeclineIn():
                await self.on_rematch_decline(message)
            case _:
                await self.on_command(message)

    async def on_command(self, message):
        """A message for the game's owner."""
        try:
            command = commands.from_client(message, self.seat)
        except Refused as refusal:
            await self.send_message(refusal.error())
            return
        match command:
            case Heard():
                await self.send_message(Pong())
                # The owner needs to hear of the socket well within its
                # silence limit, not of every ping: it may be in another
                # process.
                now = time.monotonic()
                if now - self.heard_told_at >= HEARD_EVERY_SECONDS:
                    self.heard_told_at = now
                    await self.tell_owner(command)
            case Sync(since=since):
                if self.attached:
                    await self.tell_owner(command)
                else:
                    await self.send_stored_sync(since)
            case _:
                await self.play(command)

    async def play(self, command: PlayerCommand):
        if not self.attached:
            await self.send_error(command.id, "not_playing", "the game is over")
            return
        if not await self.still_signed_in(command.id):
            return
        await self.tell_owner(command)

    async def still_signed_in(self, message_id) -> bool:
        """Whether the session still holds; if it has ended the socket
        closes as it would on hearing so. While Redis answers, the close a
        logout sends reaches the socket at once, and that is enough: reading
        the session for every move would double a move's work on the server
        (benchmarks/live_tables.py). While Redis does not, or did not
        lately, or a notice of this process waits to be sent again, the
        close may be lost or late, so the session is read from the
        database."""
        if self.hall.trusts_redis() and not retries.pending:
            return True
        try:
            ended = await session_ended(
                self.hall.journal.pool,
                session_key=self.session_key,
                user_id=self.user_id,
                password=self.password,
            )
        except psycopg.Error:
            await self.send_error(
                message_id,
                "unavailable",
                "the game could not be saved just now: send your move again",
            )
            return False
        if ended is None:
            return True
        code, reason = ended
        await self.close(code=code, reason=reason)
        return False

    async def tell_owner(self, command: OwnerCommand):
        if self.attached:
            await self.relay.command(self.game_id, self.channel_name, command)

    # Server messages

    async def send_stored_sync(self, since):
        """A sync read from the database, for a game nobody owns (over)."""
        sync = await off_the_loop(selectors.stored_sync)(self.game_id, self.seat, since)
        await self.send_message(sync)

    async def send_json(self, content, close=False):
        await self.send_text(json_text(content), close=close)

    async def send_text(self, text: str, close=False):
        await self.send(text_data=text, close=close)

    async def send_error(self, client_id, code: str, message: str):
        await self.send_message(Error(client_id, code, message))

    async def table_text(self, event):
        """A message from the game's owner in another process."""
        await self.send_text(decode(messages.TableText, event).text)

    async def table_close(self, event):
        await self.close(code=decode(messages.TableClose, event).code)
