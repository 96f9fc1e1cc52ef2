"""Listening to the games app: a tournament game that ends is taken in by a
task on the worker, so the move that ended it does not wait for the next
round to be paired and seated."""

from __future__ import annotations

import logging

from django.dispatch import receiver

from games.signals import game_ended
from tournaments.models import Board


@receiver(game_ended)
def take_in_the_result(sender, game_id: int, table_id: int, **kwargs) -> None:
    board_id = (
        Board.objects.filter(table_id=table_id, finished=False)
        .values_list("pk", flat=True)
        .first()
    )
    if board_id is None:
        return
    from tournaments.tasks import board_ended

    try:
        board_ended.delay(board_id)
    except Exception:  # the beat's sweep takes it in a moment later
        logging.getLogger(__name__).exception("could not queue board %s", board_id)
