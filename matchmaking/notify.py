"""Telling a player's quick-play page what happened to them.

Every connection of the quick-play page joins its user's group
(``quickplay-<user id>``). Called through ``transaction.on_commit`` only, so
nobody is sent to a table that was rolled back.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync

from common.channel_layer import channel_layer
from common.messages import GroupMessage, encode
from matchmaking.messages import Matched, QuickplayJoined, QuickplayMessage, Removed


def user_group(user_id: int) -> str:
    return f"quickplay-{user_id}"


def matched(user_ids: list[int], table_id: int, url: str) -> None:
    """Send each matched player to their table."""
    message = QuickplayMessage(encode(Matched(table_id, url)))
    _send_all([(user_group(user_id), message) for user_id in user_ids])


def joined(user_id: int, entry: dict) -> None:
    """The player joined a pool (``entry``: its fields, ``joined_at`` in
    Unix seconds): their quick-play sockets, which answer pings from what
    they know, know it too. Not passed on to the page."""
    _send_all([(user_group(user_id), QuickplayJoined(entry))])


def removed(user_ids: list[int], reason: str) -> None:
    """Tell players they left the pool without a match (``reason``: "away",
    "refused", or "cancelled" on another page)."""
    message = QuickplayMessage(encode(Removed(reason)))
    _send_all([(user_group(user_id), message) for user_id in user_ids])


def _send_all(sends: list[tuple[str, GroupMessage]]) -> None:
    async def send_all():
        # One after another: channels_redis stalls on concurrent sends from
        # one event loop.
        layer = channel_layer()
        for group, message in sends:
            await layer.group_send(group, encode(message))

    async_to_sync(send_all)()
