"""The jobs of record that outlive a server process, as Celery tasks.

A game's moves and timers belong to its owner (``games.live``); what must
happen even when that process is gone runs here and hands the game to an
owner: the beat's sweep of games no server owns. (A turn's deadline and a
disconnected seat's grace are stored with the game; the owner keeps them on
its event loop, and the sweep hands a game whose owner died to another.)
"""

from __future__ import annotations

import os

from celery import shared_task

from games import reviews
from games.live import relay

# The lowest priority there is: a review takes only the CPU nothing else wants.
REVIEW_NICENESS = 19


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Periodic (celery beat): games being played that nobody owns."""
    return {"handed_over": relay.hand_over_unowned()}


@shared_task(ignore_result=True)
def review(game_id: int) -> str:
    """A finished game's deal review (docs/review.md), on the reviews queue.
    The process running it drops to the lowest CPU priority first, so that
    a busy node delays reviews and never live play (which is why reviews
    have a worker of their own: the priority stays with the process)."""
    os.setpriority(os.PRIO_PROCESS, 0, REVIEW_NICENESS)
    return reviews.make(game_id)


@shared_task(ignore_result=True)
def send_queued_reviews() -> dict:
    """Periodic (celery beat): reviews whose task was lost, sent again."""
    return {"sent": reviews.send_queued()}
