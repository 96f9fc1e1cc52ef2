"""Seating a board: a live table for a tournament game."""

from __future__ import annotations

from games import services as games
from tournaments import notify
from tournaments.models import Board, BoardSeat, Entry, Round, Tournament

# Timed-out moves in a row after which a tournament player forfeits the seat.
FORFEIT_AFTER_TIMEOUTS = 3


def board_seat(
    tournament: Tournament,
    round_: Round,
    number: int,
    players: list[Entry | None],
    now,
) -> Board:
    """Board ``number`` of the round: a live table with ``players`` in its
    seats (None: a bot), its game started."""
    profile, options = tournament.game_profile()
    table = games.table_create_seated(
        profile=profile,
        options=options,
        turn_seconds=tournament.turn_seconds,
        players=[None if e is None else e.user for e in players],
        created_by=next(e for e in players if e is not None).user,
        forfeit_after_timeouts=FORFEIT_AFTER_TIMEOUTS,
        ranked=tournament.rating_category is not None,
        now=now,
    )
    board = Board.objects.create(round=round_, number=number, table=table)
    BoardSeat.objects.bulk_create(
        BoardSeat(board=board, number=seat, entry=entry)
        for seat, entry in enumerate(players)
    )
    notify.seated_on_commit(
        tournament.pk, table.pk, [e.user_id for e in players if e is not None]
    )
    return board
