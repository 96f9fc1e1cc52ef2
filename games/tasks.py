"""The jobs of record that outlive a server process, as Celery tasks.

A game's moves and timers belong to its owner (``games.live``); what must
happen even when that process is gone runs here and hands the game to an
owner: the beat's sweep of games no server owns. (A turn's deadline and a
disconnected seat's grace are stored with the game; the owner keeps them on
its event loop, and the sweep hands a game whose owner died to another.)
"""

from __future__ import annotations

from celery import shared_task

from games.live import relay


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Periodic (celery beat): games being played that nobody owns."""
    return {"handed_over": relay.hand_over_unowned()}
