"""The one lock order for several players' rows: lower id first.

Every service that locks more than one player (a rematch or a quick-play
group seating its players, a friend request, a block, an invitation) locks
them here, all at once, before anything else of theirs (wallets, ratings):
two transactions that take the same players in any seat order then wait
for each other instead of deadlocking.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from common.errors import NotFound


def lock_players(*user_ids: int) -> None:
    """Lock the players' rows (``FOR NO KEY UPDATE``, lower id first) until
    the transaction ends; ``NotFound`` if one is not a player.
    NO KEY: rows that refer to them (seats, ledger entries) may still be
    written meanwhile, by this transaction and others."""
    wanted = sorted(set(user_ids))
    # Outside a transaction Django refuses a locking read: the lock would
    # end with the statement.
    found = list(
        get_user_model()
        .objects.select_for_update(no_key=True)
        .filter(pk__in=wanted)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if found != wanted:
        raise NotFound("there is no such player")
