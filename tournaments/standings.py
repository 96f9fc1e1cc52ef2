"""Standings and final places, computed from the boards' results.

Nothing here writes: the database holds who sat where and how each game
ended; the ranking rules are each format's (``tournaments.formats.plugins``),
which read what is loaded here. Players are identified by their entry ids
throughout.
"""

from __future__ import annotations

from tournaments.formats.plugins import Row, format_of
from tournaments.models import Board, Entry, Tournament

__all__ = ["Row", "entries_taking_part", "final_places", "finished_boards", "standings"]


def finished_boards(tournament: Tournament) -> list[Board]:
    """Every board whose result is in (byes included), in order of play."""
    return list(
        Board.objects.filter(round__tournament=tournament, finished=True)
        .select_related("round")
        .prefetch_related("seats")
        .order_by("round__number", "number")
    )


def entries_taking_part(tournament: Tournament) -> list[Entry]:
    """Everyone who took part: registered at the start (not withdrawn)."""
    return list(
        tournament.entries.exclude(
            status__in=[Entry.Status.REGISTERED, Entry.Status.WITHDRAWN]
        )
        .select_related("user")
        .order_by("seed", "pk")
    )


def standings(tournament: Tournament) -> list[Row]:
    """The standings now: every finished game counts, rounds in play too."""
    return format_of(tournament.format).standings(
        tournament, finished_boards(tournament), entries_taking_part(tournament)
    )


def final_places(tournament: Tournament) -> dict[int, int]:
    """Entry id -> final place, for the prizes."""
    return {row.entry.pk: row.place for row in standings(tournament)}
