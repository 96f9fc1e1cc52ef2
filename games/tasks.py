"""The jobs of record that outlive a server process, as Celery tasks.

A game's moves and timers belong to its owner (``games.live``); what must
happen even when that process is gone runs here and hands the game to an
owner: a disconnected player's grace running out, and the beat's sweep of
games no server owns.
"""

from __future__ import annotations

from celery import shared_task

from games import services


@shared_task(ignore_result=True)
def grace_expired(game_id: int, seat: int, token: str) -> None:
    services.seat_grace_over(game_id=game_id, seat=seat, token=token)


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Periodic (celery beat): games being played that nobody owns."""
    return {"handed_over": services.hand_over_unowned()}
