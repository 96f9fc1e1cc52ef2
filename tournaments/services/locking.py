from __future__ import annotations

from common.errors import NotFound
from tournaments.models import Tournament


def locked_tournament(tournament_id: int) -> Tournament:
    """The tournament's row, locked until the transaction ends."""
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist as error:
        raise NotFound(f"there is no tournament {tournament_id}") from error
