"""A finished game handed to the ratings as plain data.

The ratings do not read the games' tables: the games build a
``RatedResult`` from the game, its table and seats when the game ends, and
the ratings decide from it whether and how it is rated.
"""

from __future__ import annotations

from games.models import Game, Seat
from ratings.categories import category_of
from ratings.results import RatedResult, RatedSeat


def rated_result(game_id: int) -> RatedResult | None:
    """The game ``game_id`` as the ratings take it, read as stored; None
    when it did not finish (an aborted or annulled game is never rated)."""
    game = Game.objects.select_related("table").get(pk=game_id)
    if game.status != Game.Status.FINISHED or not game.result:
        return None
    table = game.table
    places = game.result["places"]
    left = game.result.get("left", ())
    seats = Seat.objects.filter(table_id=table.pk).order_by("number")
    return RatedResult(
        game_id=game.pk,
        category=category_of(table.profile, table.options) if table.ranked else None,
        with_bots=table.rated_with_bots,
        seats=tuple(
            RatedSeat(
                user_id=seat.user_id,
                bot=seat.bot,
                place=places[seat.number],
                left=seat.number in left,
            )
            for seat in seats
        ),
    )
