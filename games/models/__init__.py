"""Tables, seats, games and their append-only event records, one module by
concern; everything is re-exported here, so ``from games.models import X``
and the migrations name them as before."""

from games.models.audit import HandsRead
from games.models.events import (
    DealRecord,
    Game,
    GameEvent,
    deal_of,
    replay_events,
)
from games.models.rematch import Rematch
from games.models.reviews import GameReview
from games.models.tables import PROFILE_CHOICES, Seat, Table, new_invite_code

__all__ = [
    "PROFILE_CHOICES",
    "DealRecord",
    "Game",
    "GameEvent",
    "GameReview",
    "HandsRead",
    "Rematch",
    "Seat",
    "Table",
    "deal_of",
    "new_invite_code",
    "replay_events",
]
