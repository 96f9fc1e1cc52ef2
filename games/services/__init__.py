"""Every write of live play outside a game's owner goes through these.

Pages, the API, the admin and Celery tasks call them; none of those writes
models directly. Every step of a game goes through its owner
(``games.live``): a server's, or one run by its caller outside a server
(``games.live.local``), which decides and writes it the same way.
"""

from .tables import (
    seat_add_bot,
    seat_leave,
    seat_remove_bot,
    seat_take,
    table_create,
    table_create_seated,
)

__all__ = [
    "seat_add_bot",
    "seat_leave",
    "seat_remove_bot",
    "seat_take",
    "table_create",
    "table_create_seated",
]
