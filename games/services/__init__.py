"""Every write of live play outside a game's owner goes through these.

Pages, the API, the admin and Celery tasks call them; none of those writes
models directly. Moves made at a live table go through the game's owner
(``games.live``), which decides and writes them the same way.
"""

from .play import (
    automatic_move,
    change_game,
    game_abort,
    game_act,
    game_advance_overdue,
    game_call_off,
    game_play_out,
    game_resign,
    hand_over_unowned,
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
    "automatic_move",
    "change_game",
    "game_abort",
    "game_act",
    "game_advance_overdue",
    "game_call_off",
    "game_play_out",
    "game_resign",
    "hand_over_unowned",
    "seat_add_bot",
    "seat_leave",
    "seat_remove_bot",
    "seat_take",
    "table_create",
    "table_create_seated",
]
