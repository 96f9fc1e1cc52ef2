"""The games a player finished, newest first, as their page lists them (the
games' template tag ``recent_games``), with the rating each moved."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.models import Game, Seat
from ratings import selectors as ratings


@dataclass(frozen=True, slots=True)
class RecentGame:
    game_id: int
    finished_at: datetime | None
    profile: str
    category: str | None  # the category it was rated in; None: unrated
    place: int
    players: int
    left: bool
    delta: int | None
    rating: int | None
    private: bool


def player_recent_games(user, *, viewer=None, limit: int = 10) -> list[RecentGame]:
    """The last finished games ``user`` played, newest first, with the rating
    change of each rated one. Games at private tables are listed only to the
    player themself, as only the players may see them."""
    seats = (
        Seat.objects.filter(user=user, table__game__status=Game.Status.FINISHED)
        .select_related("table", "table__game")
        .order_by("-table__game__finished_at", "-table__game__id")
    )
    if viewer is None or viewer.pk != user.pk:
        seats = seats.filter(table__is_private=False)
    shown = list(seats[:limit])
    changes = ratings.rating_changes_by_game(
        user_id=user.pk, game_ids=[s.table.game.pk for s in shown]
    )
    out = []
    for seat in shown:
        game = seat.table.game
        change = changes.get(game.pk)
        result = game.result or {}
        places = result.get("places") or []
        out.append(
            RecentGame(
                game_id=game.pk,
                finished_at=game.finished_at,
                profile=seat.table.profile,
                category=change.category if change else None,
                place=places[seat.number] if seat.number < len(places) else 0,
                players=seat.table.players,
                left=seat.number in (result.get("left") or []),
                delta=change.delta if change else None,
                rating=change.after if change else None,
                private=seat.table.is_private,
            )
        )
    return out
