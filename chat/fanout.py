"""What the chat sends out, called after commit only (``chat.services``):
a message to its room's sockets, and a word to a user's own sockets that
whom they hide has changed."""

from __future__ import annotations

from asgiref.sync import async_to_sync

from accounts.messages import ChatHidden
from accounts.sockets import tell_user
from chat.messages import ChatPosted
from common.channel_layer import channel_layer
from common.messages import encode


def said(group: str, message: dict) -> None:
    """Every socket in the room gets the message (each drops it if its
    reader hides the author)."""
    async_to_sync(channel_layer().group_send)(group, encode(ChatPosted(message)))


def hidden_changed(user_id: int) -> None:
    tell_user(user_id, ChatHidden())
