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


def user_group(user_id: int) -> str:
    """Every live-play socket of a signed-in user, wherever it is."""
    return f"user-{user_id}"


def game_changed(game, state, events: list) -> None:
    """Send every seat and the spectators their own view of the new state.

    ``game`` is the just-committed row and ``state`` its decoded state.
    """
    from games.selectors import seats_of, shared_snapshot, snapshot

    seats = seats_of(game)
    shared = shared_snapshot(game, seats)
    sends = []
    for seat in [*range(len(seats)), None]:
        message = {
            "type": "update",
            "events": events,
            **snapshot(game, seats, seat, state=state, shared=shared),
        }
        sends.append((audience_group(game.pk, seat), message))
    if game.status != "playing":
        sends.append((LOBBY_GROUP, None))
    _send_all(sends)


def presence_changed(game_id: int) -> None:
    from games.selectors import game_for_broadcast, seats_json

    game, seats = game_for_broadcast(game_id)
    message = {"type": "presence", "version": game.version, "seats": seats_json(seats)}
    audiences = [*range(len(seats)), None]
    _send_all([(audience_group(game_id, seat), message) for seat in audiences])


def lobby_changed() -> None:
    _send_all([(LOBBY_GROUP, None)])


def user_banned(user_id: int) -> None:
    """Tell every socket of a banned user to close."""

    async def send():
        await get_channel_layer().group_send(
            user_group(user_id), {"type": "user.banned"}
        )

    async_to_sync(send)()


def audience_group(game_id: int, seat: int | None) -> str:
    return spectator_group(game_id) if seat is None else seat_group(game_id, seat)


def _send_all(sends: list) -> None:
    """Send to several groups in one trip to the event loop (a message of
    None tells the lobby to refresh)."""

    async def send_all():
        # One after another: channels_redis stalls on concurrent sends
        # from one event loop.
        layer = get_channel_layer()
        for group, message in sends:
            await layer.group_send(group, _envelope(message))

    async_to_sync(send_all)()


def _envelope(message: dict | None) -> dict:
    if message is None:
        return {"type": "lobby.changed"}
    return {"type": "table.message", "message": message}


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
