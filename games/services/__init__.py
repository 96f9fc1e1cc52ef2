"""Every write of live play goes through these functions.

Pages, the API, the admin, WebSocket consumers and Celery tasks call them;
none of those writes models directly.
"""

from .play import (
    game_abort,
    game_act,
    game_advance_overdue,
    game_call_off,
    game_resign,
    sweep_overdue,
)
from .presence import (
    seat_connected,
    seat_disconnected,
    seat_grace_expired,
    sweep_disconnected,
)
from .tables import (
    seat_add_bot,
    seat_leave,
    seat_remove_bot,
    seat_take,
    table_create,
    table_create_seated,
)

__all__ = [
    "game_abort",
    "game_act",
    "game_advance_overdue",
    "game_call_off",
    "game_resign",
    "seat_add_bot",
    "seat_connected",
    "seat_disconnected",
    "seat_grace_expired",
    "seat_leave",
    "seat_remove_bot",
    "seat_take",
    "sweep_disconnected",
    "sweep_overdue",
    "table_create",
    "table_create_seated",
]
