"""Telling a player's pages what happened to them, over /ws/me/.

Every /ws/me/ socket joins its user's group (``me_group``). The services
call these through ``transaction.on_commit`` only, so nobody hears of a
request or an invitation that was rolled back. The messages are those of
docs/protocol.md ("The personal socket").
"""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import async_to_sync

from common.channel_layer import channel_layer
from common.messages import ClientOut, encode
from social.messages import Friends, MeMessage

FRIENDS = Friends()

# Checks of whether a player wants no notice from another, (receiver id,
# sender id) -> bool. A block refuses the request itself; the chat, which
# the social app may not import, adds its personal mutes (``chat.apps``).
_SILENCERS: list[Callable[[int, int], bool]] = []


def silence_when(check: Callable[[int, int], bool]) -> None:
    """Add a check of whether ``receiver`` wants no notice from ``sender``."""
    if check not in _SILENCERS:
        _SILENCERS.append(check)


def silenced(receiver_id: int, sender_id: int) -> bool:
    """Whether ``receiver_id`` is told nothing of what ``sender_id`` asks."""
    return any(check(receiver_id, sender_id) for check in _SILENCERS)


def me_group(user_id: int) -> str:
    return f"me-{user_id}"


def send(messages: list[tuple[int, ClientOut]]) -> None:
    """Send each ``(user id, message)`` to every /ws/me/ socket of the user."""
    async_to_sync(send_async)(messages)


async def send_async(messages: list[tuple[int, ClientOut]]) -> None:
    # One after another: channels_redis stalls on concurrent sends from one
    # event loop.
    layer = channel_layer()
    for user_id, message in messages:
        await layer.group_send(me_group(user_id), encode(MeMessage(encode(message))))


def friends_changed(*user_ids: int) -> None:
    """The friends, requests or blocks of these players changed: their
    friends pages read them again."""
    send([(user_id, FRIENDS) for user_id in user_ids])
