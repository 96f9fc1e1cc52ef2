"""The lobby's socket: tells lobby pages to refresh their table list when
it changes (docs/protocol.md). The lobby's chat rides on it
(``chat.sockets``, through ``riders``)."""

from __future__ import annotations

from typing import ClassVar

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from common.messages import ClientIn, Pong, Refused, parse
from games.consumers.sockets import (
    DirectDispatchMixin,
    UserSocketMixin,
    read_frame,
)
from games.messages import LOBBY, Lobby
from games.services.notify import LOBBY_GROUP


class LobbyConsumer(
    DirectDispatchMixin,
    UserSocketMixin,
    AsyncJsonWebsocketConsumer,
):
    """Tells lobby pages to refresh their table list when it changes.

    Open to everybody; a signed-in user's socket also joins the user's
    group.
    """

    async def connect(self):
        user = self.scope["user"]
        if user.is_authenticated and not await self.join_user_group(user):
            return
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.joined(user.pk if user.is_authenticated else None)

    async def joined(self, user_id: int | None) -> None:
        """The socket is open: for what rides on it (the lobby's chat)."""

    async def leaving(self) -> None:
        """The socket is closing, before it leaves its groups."""

    GROUPS = (*UserSocketMixin.GROUPS, LOBBY)
    # The messages answered other than with a pong (``chat.sockets`` adds
    # the chat's, and handles them in ``on_message``).
    TAKES: ClassVar[dict[str, type[ClientIn]]] = {}

    async def disconnect(self, code):
        await self.leaving()
        await self.leave_user_group()
        await self.leave_group(LOBBY_GROUP)

    async def receive(self, text_data=None, bytes_data=None):
        """A frame of a type in ``TAKES`` is read and handled (or refused);
        every other frame, whatever it holds, is a keep-alive answered with
        a pong."""
        try:
            frame = read_frame(text_data, bytes_data)
        except Refused:
            frame = None
        if frame is None or frame["type"] not in self.TAKES:
            await self.send_message(Pong())
            return
        try:
            message = parse(frame, self.TAKES)
        except Refused as refusal:
            await self.send_message(refusal.error())
            return
        await self.on_message(message)

    async def on_message(self, message: ClientIn) -> None:
        """The one dispatch of what the page sent (``chat.sockets``)."""

    async def lobby_changed(self, event):
        await self.send_message(Lobby())
