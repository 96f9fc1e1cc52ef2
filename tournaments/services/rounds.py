"""Rounds: pairing and seating them on live tables, taking in the results,
and moving on when every game of the round has ended."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import cast

from django.db import transaction
from django.utils import timezone

from games.models import Game, GameEvent
from tournaments import notify
from tournaments.formats.plugins import format_of
from tournaments.models import Board, BoardSeat, Entry, Round, Tournament
from tournaments.standings import entries_taking_part, finished_boards

from .absence import drop_absent
from .arena import arena_take_result
from .boards import board_seat
from .finishing import tournament_finish
from .locking import locked_tournament


def round_start(tournament: Tournament, number: int, now: datetime) -> Round:
    """Pair or seat round ``number`` and start its games (under the lock)."""
    in_play = list(
        tournament.entries.filter(status=Entry.Status.PLAYING)
        .select_related("user")
        .order_by("seed", "pk")
    )
    plan = format_of(tournament.format).plan_round(
        tournament,
        number,
        in_play,
        finished_boards(tournament),
        entries_taking_part(tournament),
    )
    round_ = Round.objects.create(
        tournament=tournament, number=number, is_final_table=plan.is_final_table
    )
    by_id = {entry.pk: entry for entry in in_play}
    for board_number, group in enumerate(plan.groups, start=1):
        players = [None if pk is None else by_id[pk] for pk in group]
        humans = [entry for entry in players if entry is not None]
        if len(humans) <= 1 and tournament.players_per_table == 2:
            # A bye: a win without a game (or, in a knockout whose two
            # players both withdrew, an empty slot of the bracket).
            board = Board.objects.create(
                round=round_, number=board_number, is_bye=True, finished=True
            )
            if humans:
                BoardSeat.objects.create(
                    board=board, number=0, entry=humans[0], place=1, won=True
                )
            continue
        board_seat(tournament, round_, board_number, players, now)
    _note_score_groups(round_, plan.score_groups)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    notify.changed_on_commit(tournament.pk, "round")
    # Every game of the round may already be over (all byes): move on.
    _advance_if_done(tournament, round_, now)
    return round_


def _note_score_groups(
    round_: Round, score_groups: dict[int, tuple[Decimal, str]]
) -> None:
    if not score_groups:
        return
    seats = list(BoardSeat.objects.filter(board__round=round_, entry__isnull=False))
    for seat in seats:
        seat.points_before, seat.floated = score_groups[cast(int, seat.entry_id)]
    BoardSeat.objects.bulk_update(seats, ["points_before", "floated"])


def board_take_result(*, board_id: int, now=None) -> bool:
    """Copy a board's game result to its seats; when it was the round's
    last game, close the round and start the next (or finish). In an arena,
    pair its players again instead (or finish, once the time is up). False when
    there was nothing to do (the game goes on, or this was done before)."""
    now = now or timezone.now()
    tournament_id = (
        Board.objects.filter(pk=board_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        return False
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        board = Board.objects.select_related("round", "table__game").get(pk=board_id)
        if (
            board.finished
            or tournament.status != Tournament.Status.RUNNING
            or board.table is None  # a board is told of its game, so has a table
        ):
            return False
        game = board.table.game
        if game.status == Game.Status.PLAYING:
            return False
        _record(board, game)
        notify.changed_on_commit(tournament.pk, "result")
        if format_of(tournament.format).continuous:
            arena_take_result(tournament, board, now)
        else:
            _advance_if_done(tournament, board.round, now)
        return True


def _record(board: Board, game: Game) -> None:
    seats = list(board.seats.all())
    moved = set(
        GameEvent.objects.filter(game=game, cause=GameEvent.Cause.PLAYER)
        .values_list("seat", flat=True)
        .distinct()
    )
    result = game.result if game.status == Game.Status.FINISHED else None
    for seat in seats:
        seat.absent = seat.entry_id is not None and seat.number not in moved
        if result is not None:
            seat.place = result["places"][seat.number]
            seat.score = result["totals"][seat.number]
            seat.won = seat.number in result["winners"]
    BoardSeat.objects.bulk_update(seats, ["place", "score", "won", "absent"])
    board.finished = True
    board.save(update_fields=["finished"])


def _advance_if_done(tournament: Tournament, round_: Round, now) -> None:
    if round_.boards.filter(finished=False).exists():
        return
    _close_round(tournament, round_, now)
    players_left = tournament.entries.filter(status=Entry.Status.PLAYING).count()
    enough = 2 if tournament.players_per_table == 2 else 1
    if round_.number >= tournament.rounds or players_left < enough:
        tournament_finish(tournament, now)
    else:
        round_start(tournament, round_.number + 1, now)


def _close_round(tournament: Tournament, round_: Round, now: datetime) -> None:
    """Round over: the players the format puts out leave (a knockout's
    losers), and whoever missed the whole round (made no move of their own)
    and is not on the site is withdrawn."""
    seats = list(
        BoardSeat.objects.filter(
            board__round=round_, entry__isnull=False
        ).select_related("entry", "board")
    )
    entries = [seat.entry for seat in seats if seat.entry is not None]
    for loser in format_of(tournament.format).knocked_out(seats, entries):
        Entry.objects.filter(pk=loser, status=Entry.Status.PLAYING).update(
            status=Entry.Status.ELIMINATED
        )
    drop_absent(seats)
    round_.status = Round.Status.FINISHED
    round_.finished_at = now
    round_.save(update_fields=["status", "finished_at"])


def board_results_sweep(*, now=None) -> int:
    """Take in every ended game whose announcement was lost (beat)."""
    now = now or timezone.now()
    ended = Board.objects.filter(
        finished=False,
        round__tournament__status=Tournament.Status.RUNNING,
        table__game__status__in=[
            Game.Status.FINISHED,
            Game.Status.ABORTED,
            Game.Status.ANNULLED,
        ],
    ).values_list("pk", flat=True)
    return sum(board_take_result(board_id=pk, now=now) for pk in list(ended))
