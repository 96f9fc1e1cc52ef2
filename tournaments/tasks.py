"""Beat-driven and event-driven tournament work, as Celery tasks.

Every task calls an idempotent service, so a task delivered twice, or the
same tick run by two beat processes, changes things once.
"""

from __future__ import annotations

from celery import shared_task

from tournaments import services


@shared_task(ignore_result=True)
def tick() -> dict:
    """Periodic (celery beat): recurring tournaments created ahead, due
    tournaments started, any ended game whose message was lost taken in, and
    arenas paired or, once their time is up, finished."""
    created = services.tournament_create_scheduled()
    started = services.tournament_start_due()
    recorded = services.board_results_sweep()
    arenas = services.arena_tick()
    return {
        "created": len(created),
        "started": started,
        "recorded": recorded,
        "arenas": arenas,
    }


@shared_task(ignore_result=True)
def board_ended(board_id: int) -> bool:
    return services.board_take_result(board_id=board_id)
