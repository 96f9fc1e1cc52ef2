"""Live updates of a tournament page, sent after commit only.

The message says only that something changed (a registration, a round, a
result); pages fetch what they show, so nothing private travels here.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def changed_on_commit(tournament_id: int, what: str) -> None:
    transaction.on_commit(lambda: changed(tournament_id, what))


def changed(tournament_id: int, what: str) -> None:
    message = {"type": "tournament.changed", "what": what}
    try:
        async_to_sync(get_channel_layer().group_send)(
            tournament_group(tournament_id), message
        )
    except Exception:  # a live update is a courtesy; the change is saved
        logger.exception("could not announce a change of tournament %s", tournament_id)
