"""The lobby's socket: tells lobby pages to refresh their table list when
it changes, and carries the lobby's chat (docs/protocol.md)."""

from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from chat.consumers import CHAT_TYPES, ChatSocketMixin
from chat.selectors import LOBBY
from games.consumers.sockets import (
    DirectDispatchMixin,
    FrameError,
    UserSocketMixin,
    read_frame,
)
from games.services.notify import LOBBY_GROUP


class LobbyConsumer(
    DirectDispatchMixin,
    UserSocketMixin,
    ChatSocketMixin,
    AsyncJsonWebsocketConsumer,
):
    """Tells lobby pages to refresh their table list when it changes, and
    carries the lobby's chat.

    Open to everybody (anonymous visitors read the chat, signed-in users
    write in it); a signed-in user's socket also joins the user's group.
    """

    async def connect(self):
        user = self.scope["user"]
        if user.is_authenticated and not await self.join_user_group(user):
            return
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.chat_join(LOBBY, user.pk if user.is_authenticated else None)

    async def disconnect(self, code):
        await self.chat_leave()
        await self.leave_user_group()
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """A chat message (``CHAT_TYPES``) goes to the chat; every other
        frame, whatever it holds, is a keep-alive answered with a pong, as
        before there was a chat."""
        try:
            message = read_frame(text_data, bytes_data)
        except FrameError:
            message = None
        if message is not None and message["type"] in CHAT_TYPES:
            await self.chat_receive(message)
        else:
            await self.send_json({"type": "pong"})

    async def lobby_changed(self, event):
        await self.send_json({"type": "lobby"})
