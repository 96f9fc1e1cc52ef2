"""The jobs of record that outlive a server process, as Celery tasks.

A game's moves and timers belong to its owner (``games.live``); what must
happen even when that process is gone runs here and hands the game to an
owner: the beat's sweep of games no server owns. (A turn's deadline and a
disconnected seat's grace are stored with the game; the owner keeps them on
its event loop, and the sweep hands a game whose owner died to another.)
"""

from __future__ import annotations

from celery import shared_task

from games import reviews
from games.live import outside


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Periodic (celery beat): games being played that nobody owns."""
    return {"handed_over": outside.hand_over_unowned()}


@shared_task(ignore_result=True)
def review(game_id: int) -> str:
    """A finished game's deal review (docs/review.md), routed to the reviews
    queue, which only the reviews' own worker takes, at the lowest CPU
    priority (``config.review_worker``)."""
    return reviews.make(game_id)


@shared_task(ignore_result=True)
def send_queued_reviews() -> dict:
    """Periodic (celery beat): reviews whose task was lost, sent again."""
    return {"sent": reviews.send_queued()}
