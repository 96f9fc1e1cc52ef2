"""The one lock order of the social services: players' rows, lower id
first."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from common.errors import NotFound


def lock_players(*user_ids: int) -> None:
    """Lock the players' rows (``FOR NO KEY UPDATE``, lower id first) until
    the transaction ends; ``NotFound`` if one is not a player.
    NO KEY: rows that refer to them may still be written meanwhile."""
    wanted = sorted(set(user_ids))
    found = list(
        get_user_model()
        .objects.select_for_update(no_key=True)
        .filter(pk__in=wanted)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if found != wanted:
        raise NotFound("there is no such player")
