"""A finished game handed to the ratings as plain data.

The ratings do not read the games' tables: the games build a
``RatedResult`` from the game, its table and seats when the game ends, and
the ratings decide from it whether and how it is rated.
"""

from __future__ import annotations

from django.db.models import Count, Q

from games.models import Game, GameEvent, Seat
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
    turns = _turns_by_seat(game.pk)
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
                turns=turns.get(seat.number, (0, 0))[0],
                timeouts=turns.get(seat.number, (0, 0))[1],
            )
            for seat in seats
        ),
    )


def _turns_by_seat(game_id: int) -> dict[int, tuple[int, int]]:
    """Each seat's turns while a person held it (their own moves and the
    timer's for them), and how many of those ran out, by seat number. The
    moves after a seat was left, and a bot's, are neither."""
    rows = (
        GameEvent.objects.filter(
            game_id=game_id,
            kind=GameEvent.Kind.ACTION,
            cause__in=[GameEvent.Cause.PLAYER, GameEvent.Cause.TIMEOUT],
        )
        .values("seat")
        .annotate(
            turns=Count("pk"),
            timeouts=Count("pk", filter=Q(cause=GameEvent.Cause.TIMEOUT)),
        )
        .order_by()
    )
    # A player's action and a timeout are always a seat's.
    return {
        row["seat"]: (row["turns"], row["timeouts"])
        for row in rows
        if row["seat"] is not None
    }
