"""The socket of a table still waiting for its players, /ws/tables/<id>/.

The waiting page draws the seats from the server, so it only needs to know
when to read them again: the socket passes on the lobby's word that the
tables changed (a seat taken or left, the game begun). What rides on it
beside comes in through ``joined``, ``leaving`` and ``on_message``
(``riders``): the table's chat (``chat.sockets``), so that the players
talk while the last seats fill. The messages are in docs/protocol.md
("The waiting table's socket").
"""

from __future__ import annotations

from typing import ClassVar

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.sockets import CLOSE_FORBIDDEN
from common.database_threads import off_the_loop
from common.messages import ClientIn, Ping, Pong, Refused, by_type, parse
from games import selectors
from games.consumers.sockets import (
    CLOSE_NOT_FOUND,
    DirectDispatchMixin,
    UserSocketMixin,
    read_frame,
)
from games.messages import LOBBY, Lobby
from games.services.notify import LOBBY_GROUP


class WaitingTableConsumer(
    DirectDispatchMixin,
    UserSocketMixin,
    AsyncJsonWebsocketConsumer,
):
    """A signed-in user's socket at a table's waiting page: seated, or
    watching a public table. Unlike the lobby's socket it reads every frame:
    a ping is answered with a pong, anything else it does not take with an
    error, as the personal socket answers."""

    GROUPS = (*UserSocketMixin.GROUPS, LOBBY)
    # What the page may send: a ping, and what rides on the socket
    # (``chat.sockets`` adds the chat's, and handles them in ``on_message``).
    TAKES: ClassVar[dict[str, type[ClientIn]]] = by_type(Ping)

    table_id: int
    seat: int | None = None

    async def connect(self):
        if not await self.open_signed_in(self.may_see):
            return
        await self.joined()

    async def may_see(self, user) -> bool:
        """Whether the table is there and the user may see it (refused with
        4404 or 4403 if not); the user's seat at it, if any. The socket
        hears the lobby's news from before it is accepted."""
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        access = await off_the_loop(selectors.waiting_table_access)(self.table_id, user)
        if access is None:
            await self.refuse(CLOSE_NOT_FOUND, "no such table")
            return False
        if not access.may_watch:
            await self.refuse(CLOSE_FORBIDDEN, "private table")
            return False
        self.seat = access.seat
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        return True

    async def joined(self) -> None:
        """The socket is open: for what rides on it (the table's chat)."""

    async def leaving(self) -> None:
        """The socket is closing, before it leaves its groups."""

    async def disconnect(self, code):
        await self.leaving()
        await self.leave_user_group()
        await self.leave_group(LOBBY_GROUP)

    async def receive(self, text_data=None, bytes_data=None):
        # Parsed here rather than in receive_json, so that a malformed frame
        # gets an error message instead of closing the socket.
        try:
            frame = read_frame(text_data, bytes_data)
            message = parse(frame, self.TAKES, unknown_named=False)
        except Refused as refusal:
            await self.send_message(refusal.error())
            return
        await self.on_message(message)

    async def on_message(self, message: ClientIn) -> None:
        """The one dispatch of what the page sent (a ping, here)."""
        await self.send_message(Pong())

    async def lobby_changed(self, event):
        """A table changed somewhere: the page reads its own again."""
        await self.send_message(Lobby())
