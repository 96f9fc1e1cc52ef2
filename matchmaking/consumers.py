"""The quick-play page's WebSocket: where a waiting player hears of a match.

Each connection joins its user's group (``notify.user_group``) and receives
``{"type": "matched", "table": id, "url": ...}`` when a tick seats them, or
``{"type": "removed", "reason": ...}`` when they leave the pool without one.
A ``{"type": "ping"}`` from the page says the player is still there (see
``services.AWAY_SECONDS``) and is answered with their status. Like every
live-play socket it closes with its session (``accounts.sockets``).
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from games.consumers import CLOSE_ANONYMOUS, DirectDispatchMixin, UserSocketMixin
from matchmaking import notify, selectors, services


class QuickPlayConsumer(
    DirectDispatchMixin, UserSocketMixin, AsyncJsonWebsocketConsumer
):
    group: str | None = None

    async def connect(self):
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.refuse(CLOSE_ANONYMOUS, "not signed in")
            return
        # The user's live-play group too: a ban closes this socket as well.
        if not await self.join_user_group(user):
            return
        self.group = notify.user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.leave_user_group()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        # Parsed here rather than in receive_json, so that a malformed frame
        # gets an answer instead of closing the socket.
        content = None
        if text_data and len(text_data) <= settings.PULKA_MAX_FRAME_BYTES:
            try:
                content = json.loads(text_data)
            except ValueError:
                pass
        if isinstance(content, dict) and content.get("type") == "ping":
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
    }
