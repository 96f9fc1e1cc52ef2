"""Every write of the tournaments app goes through these functions.

Locking: a service that changes a tournament first locks its row
(``select_for_update``), so registrations, the start, round changes and a
cancellation of one tournament happen one at a time, and each of them checks
the status it found under the lock: a start or a round change asked twice
(two beat processes, a task delivered again) acts once.
"""

from .arena import arena_tick
from .lifecycle import (
    start_due,
    tournament_cancel,
    tournament_create,
    tournament_start,
)
from .registration import tournament_register, tournament_withdraw
from .rounds import board_ended, sweep_running
from .schedules import create_scheduled, next_starts

__all__ = [
    "arena_tick",
    "board_ended",
    "create_scheduled",
    "next_starts",
    "start_due",
    "sweep_running",
    "tournament_cancel",
    "tournament_create",
    "tournament_register",
    "tournament_start",
    "tournament_withdraw",
]
