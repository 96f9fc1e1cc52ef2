"""The quick-play page's WebSocket: where a waiting player hears of a match.

Each connection joins its user's group (``notify.user_group``) and receives
``{"type": "matched", "table": id, "url": ...}`` when a tick seats them, or
``{"type": "removed", "reason": ...}`` when they leave the pool without one.
A ``{"type": "ping"}`` from the page says the player is still there (see
``services.AWAY_SECONDS``) and is answered with their status. Like every
live-play socket it closes with its session (``accounts.sockets``).
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.consumers.sockets import (
    DirectDispatchMixin,
    FrameError,
    UserSocketMixin,
    read_frame,
)
from matchmaking import notify, selectors, services


class QuickPlayConsumer(
    DirectDispatchMixin, UserSocketMixin, AsyncJsonWebsocketConsumer
):
    group: str | None = None

    async def connect(self):
        # The user's live-play group too: a ban closes this socket as well.
        await self.open_signed_in(self.join_pool_group)

    async def join_pool_group(self, user) -> bool:
        self.group = notify.user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        return True

    async def disconnect(self, code):
        await self.leave_user_group()
        await self.leave_group(self.group)

    async def receive(self, text_data=None, bytes_data=None):
        # Parsed here rather than in receive_json, so that a malformed frame
        # gets an answer instead of closing the socket; read as the table's
        # socket reads its frames, every refusal is a bad_message here.
        try:
            is_ping = read_frame(text_data, bytes_data)["type"] == "ping"
        except FrameError:
            is_ping = False
        if is_ping:
            await self.send_json(
                await database_sync_to_async(_status)(self.scope["user"])
            )
        else:
            await self.send_json({"type": "error", "code": "bad_message"})

    async def quickplay_message(self, event):
        await self.send_json(event["message"])


def _status(user) -> dict:
    services.pool_touch(user=user)
    status = selectors.pool_status(user)
    return {
        "type": "status",
        "waiting": status.waiting,
        "waited": status.waited,
        "window": status.window,
        "players": status.players,
        "table": status.table,
        "url": status.url,
        "bots_in": status.bots_in,
    }
