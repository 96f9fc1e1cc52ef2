"""Telling a player's quick-play page what happened to them.

Every connection of the quick-play page joins its user's group
(``quickplay-<user id>``). Called through ``transaction.on_commit`` only, so
nobody is sent to a table that was rolled back.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def user_group(user_id: int) -> str:
    return f"quickplay-{user_id}"


def matched(user_ids: list[int], table_id: int, url: str) -> None:
    """Send each matched player to their table."""
    message = {"type": "matched", "table": table_id, "url": url}
    _send_all([(user_group(user_id), message) for user_id in user_ids])


def removed(user_ids: list[int], reason: str) -> None:
    """Tell players they left the pool without a match (``reason``: "away"
    or "refused")."""
    message = {"type": "removed", "reason": reason}
    _send_all([(user_group(user_id), message) for user_id in user_ids])


def _send_all(sends: list[tuple[str, dict]]) -> None:
    async def send_all():
        # One after another: channels_redis stalls on concurrent sends from
        # one event loop.
        layer = get_channel_layer()
        for group, message in sends:
            await layer.group_send(
                group, {"type": "quickplay.message", "message": message}
            )

    async_to_sync(send_all)()
