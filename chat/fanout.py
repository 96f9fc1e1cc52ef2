"""What the chat sends out, called after commit only (``chat.services``):
a message to its room's sockets, and a word to a user's own sockets that
whom they hide has changed."""

from __future__ import annotations

from asgiref.sync import async_to_sync

from accounts.sockets import CHAT_HIDDEN, tell_user
from common.channel_layer import channel_layer


def said(group: str, message: dict) -> None:
    """Every socket in the room gets the message (each drops it if its
    reader hides the author)."""
    async_to_sync(channel_layer().group_send)(
        group, {"type": "chat.said", "message": message}
    )


def hidden_changed(user_id: int) -> None:
    tell_user(user_id, {"type": CHAT_HIDDEN})
