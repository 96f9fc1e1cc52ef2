"""Tournaments in the REST API: settings, standings, pairings and results.

Exact numbers stay exact: tournament points and tie-breaks are fractions (a
drawn game is half a point, shared places share their points), so each is
given twice, as the exact fraction in a string ("7/3", "2") and as the
nearest float for sorting and charts (``points`` and ``points_value``).

Pairings name tables and games so they can be watched, and copy each board's
result once it is in; never anything of a game's state, so never any cards.
"""

from .pairings import (
    TournamentBoardSeatSerializer,
    TournamentBoardSerializer,
    TournamentPairingsSerializer,
    TournamentRoundSerializer,
)
from .results import (
    TournamentEntrySerializer,
    TournamentNotFinishedSerializer,
    TournamentRegisterRefusalSerializer,
    TournamentResultSerializer,
    TournamentResultsSerializer,
    TournamentWithdrawRefusalSerializer,
)
from .standings import TournamentStandingSerializer, TournamentStandingsSerializer
from .tournaments import (
    TournamentDetailSerializer,
    TournamentFilterSerializer,
    TournamentLinksSerializer,
    TournamentSerializer,
)

__all__ = [
    "TournamentBoardSeatSerializer",
    "TournamentBoardSerializer",
    "TournamentDetailSerializer",
    "TournamentEntrySerializer",
    "TournamentFilterSerializer",
    "TournamentLinksSerializer",
    "TournamentNotFinishedSerializer",
    "TournamentPairingsSerializer",
    "TournamentRegisterRefusalSerializer",
    "TournamentResultSerializer",
    "TournamentResultsSerializer",
    "TournamentRoundSerializer",
    "TournamentSerializer",
    "TournamentStandingSerializer",
    "TournamentStandingsSerializer",
    "TournamentWithdrawRefusalSerializer",
]
