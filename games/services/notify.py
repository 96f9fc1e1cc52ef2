"""What happens after a commit: live updates and the next timer.

Called through ``transaction.on_commit`` only, so a rolled-back change is
never announced and no timer is set for it.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def seat_group(game_id: int, seat: int) -> str:
    return f"game-{game_id}-seat-{seat}"


def spectator_group(game_id: int) -> str:
    return f"game-{game_id}-watch"


def game_changed(game_id: int, version: int, events: list) -> None:
    """Send every seat and the spectators their own view of the new state."""
    from games.selectors import game_for_broadcast, snapshot

    game, seats = game_for_broadcast(game_id)
    layer = get_channel_layer()
    send = async_to_sync(layer.group_send)
    for seat in [*range(len(seats)), None]:
        message = {
            "type": "update",
            "events": events,
            **snapshot(game, seats, seat),
        }
        group = spectator_group(game_id) if seat is None else seat_group(game_id, seat)
        send(group, {"type": "table.message", "message": message})
    if game.status != "playing":
        lobby_changed()


def presence_changed(game_id: int) -> None:
    from games.selectors import game_for_broadcast, seats_json

    game, seats = game_for_broadcast(game_id)
    message = {"type": "presence", "version": game.version, "seats": seats_json(seats)}
    send = async_to_sync(get_channel_layer().group_send)
    for seat in range(len(seats)):
        send(seat_group(game_id, seat), {"type": "table.message", "message": message})
    send(spectator_group(game_id), {"type": "table.message", "message": message})


def lobby_changed() -> None:
    async_to_sync(get_channel_layer().group_send)(
        LOBBY_GROUP, {"type": "lobby.changed"}
    )


def schedule_move(game_id: int, version: int, deadline) -> None:
    """The timer of the move due at ``version``: a task at its deadline."""
    from games.tasks import advance_overdue

    _send_task(advance_overdue, (game_id, version), eta=deadline)


def schedule_grace(game_id: int, seat: int, token: str, seconds: float) -> None:
    from games.tasks import grace_expired

    _send_task(grace_expired, (game_id, seat, token), countdown=seconds)


def _send_task(task, args, **options) -> None:
    # The move itself is committed; if the broker cannot take the timer now,
    # the periodic sweep (games.tasks.sweep) finds the overdue game instead.
    try:
        task.apply_async(args, **options)
    except OperationalError:
        logger.warning(
            "could not schedule %s%r; the sweep will catch it", task.name, args
        )
