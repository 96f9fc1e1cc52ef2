"""What tournaments hear from the games: a tournament game that ends is
taken in by a task on the worker, so the move that ended it does not wait
for the next round to be paired and seated."""

from __future__ import annotations

import logging

from games.ended import GameEnded
from tournaments.models import Board
from tournaments.tasks import board_ended

logger = logging.getLogger(__name__)


def take_in_the_result(ended: GameEnded) -> None:
    """Subscriber to ``games.ended``, after the commit."""
    board_id = (
        Board.objects.filter(table_id=ended.table_id, finished=False)
        .values_list("pk", flat=True)
        .first()
    )
    if board_id is None:
        return
    try:
        board_ended.delay(board_id)
    except Exception:  # the beat's sweep takes it in a moment later
        logger.exception("could not queue board %s", board_id)
