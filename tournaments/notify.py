"""Live updates of a tournament page, and a player's news of their next
game, sent after commit only.

The page's message says only that something changed (a registration, a
round, a result); pages fetch what they show, so nothing private travels
there. A player seated at a new game hears of it on every page they have
open, through their personal socket (``social.notify``, docs/protocol.md:
``next_game``).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from django.db import transaction
from django.urls import reverse

from common.channel_layer import channel_layer
from common.messages import encode
from social import notify as personal
from tournaments.messages import NextGame, TournamentChanged

logger = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def changed_on_commit(tournament_id: int, what: str) -> None:
    transaction.on_commit(lambda: changed(tournament_id, what))


def changed(tournament_id: int, what: str) -> None:
    message = encode(TournamentChanged(what))
    try:
        async_to_sync(channel_layer().group_send)(
            tournament_group(tournament_id), message
        )
    except Exception:  # a live update is a courtesy; the change is saved
        logger.exception("could not announce a change of tournament %s", tournament_id)


def seated_on_commit(tournament_id: int, table_id: int, user_ids: list[int]) -> None:
    """Once committed, tell each player seated at the new table: their pages
    show it, and a page of their last game's result takes them there."""
    transaction.on_commit(lambda: seated(tournament_id, table_id, user_ids))


def over_on_commit(tournament_id: int, user_ids: list[int]) -> None:
    """Once committed, tell the players the tournament is over: ``next_game``
    with no table, so that a result page says so instead of "next"."""
    transaction.on_commit(lambda: seated(tournament_id, None, user_ids))


def seated(tournament_id: int, table_id: int | None, user_ids: list[int]) -> None:
    message = NextGame(
        tournament_id,
        table_id,
        reverse("games:table", args=[table_id])
        if table_id is not None
        else reverse("tournaments:detail", args=[tournament_id]),
    )
    try:
        personal.send([(user_id, message) for user_id in user_ids])
    except Exception:  # the tournament page and the beat's tick still seat them
        logger.exception("could not tell the players of table %s", table_id)
