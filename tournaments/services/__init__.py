"""Every write of the tournaments app goes through these functions.

Locking: a service that changes a tournament first locks its row
(``select_for_update``), so registrations, the start, round changes and a
cancellation of one tournament happen one at a time, and each of them checks
the status it found under the lock: a start or a round change asked twice
(two beat processes, a task delivered again) acts once.
"""

from .arena import arena_tick
from .lifecycle import (
    tournament_cancel,
    tournament_create,
    tournament_start,
    tournament_start_due,
    tournament_start_now,
)
from .registration import tournament_register, tournament_withdraw
from .rounds import board_results_sweep, board_take_result
from .schedules import schedule_next_starts, tournament_create_scheduled

__all__ = [
    "arena_tick",
    "board_results_sweep",
    "board_take_result",
    "schedule_next_starts",
    "tournament_cancel",
    "tournament_create",
    "tournament_create_scheduled",
    "tournament_register",
    "tournament_start",
    "tournament_start_now",
    "tournament_start_due",
    "tournament_withdraw",
]
