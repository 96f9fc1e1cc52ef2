"""Finishing a tournament: final places, prizes, results final.

Below the services that reach a tournament's end (the last round of
``rounds``, the arena's time up in ``arena``), which both import it; so
neither needs the other, nor ``lifecycle``, which starts them.
"""

from __future__ import annotations

from coins import services as coins
from tournaments import notify
from tournaments.formats.prizes import split_prizes
from tournaments.models import Entry, Tournament
from tournaments.standings import final_places


def tournament_finish(tournament: Tournament, now) -> None:
    """Final places, prizes out of the pool (all of it), results final.
    Runs under the tournament's lock, once its last round has ended."""
    places = final_places(tournament)
    entries = {e.pk: e for e in tournament.entries.filter(pk__in=places)}
    pool = coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL)
    prizes = split_prizes(pool, tournament.prize_split, places)
    for entry_id, entry in entries.items():
        entry.place = places[entry_id]
        entry.prize = prizes.get(entry_id, 0)
    Entry.objects.bulk_update(list(entries.values()), ["place", "prize"])
    if pool:
        coins.pool_payout(
            ref=tournament.pool_ref,
            shares={entry.user_id: entry.prize for entry in entries.values()},
            key_prefix=f"{tournament.pool_ref}:prize",
        )
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save()
    notify.changed_on_commit(tournament.pk, "finished")
    # A player still on their last game's result hears that nothing follows.
    notify.over_on_commit(tournament.pk, [e.user_id for e in entries.values()])
