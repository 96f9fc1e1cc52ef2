"""Tournaments, their recurring schedules, entries, rounds and boards.

A tournament is set up by staff (or created by a ``Schedule``), takes
registrations until it starts, then plays rounds. Each round is a set of
boards: a board is one live table (``games.Table``) with its seats, or a bye.
Standings are not stored: they are computed from the boards' results by
each format's plug-in (``tournaments.formats.plugins``, through
``tournaments.standings``). All
changes go through ``tournaments.services``.

One module by concern (``tournaments``: a tournament, its schedule and their
settings; ``play``: entries, rounds, boards and seats); everything is
re-exported here, so ``from tournaments.models import X`` and the migrations
name them as before.
"""

from tournaments.models.play import Board, BoardSeat, Entry, Round
from tournaments.models.tournaments import (
    TOURNAMENT_CATEGORIES,
    Schedule,
    Tournament,
    TournamentSettings,
    default_points,
    default_prize_split,
)

__all__ = [
    "TOURNAMENT_CATEGORIES",
    "Board",
    "BoardSeat",
    "Entry",
    "Round",
    "Schedule",
    "Tournament",
    "TournamentSettings",
    "default_points",
    "default_prize_split",
]
