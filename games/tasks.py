"""Timers as Celery tasks: thin, idempotent re-checks of a locked game.

Each task names the game version it was set for; the service it calls does
nothing when the game has moved on, so a task delivered twice acts once.
"""

from __future__ import annotations

from celery import shared_task

from games import services


@shared_task(ignore_result=True)
def advance_overdue(game_id: int, version: int) -> bool:
    return services.game_advance_overdue(game_id=game_id, version=version)


@shared_task(ignore_result=True)
def grace_expired(game_id: int, seat: int, token: str) -> bool:
    return services.seat_grace_expired(game_id=game_id, seat=seat, token=token)


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Periodic (celery beat): moves and grace periods whose task was lost."""
    return {
        "moves": services.sweep_overdue(),
        "left": services.sweep_disconnected(),
    }
