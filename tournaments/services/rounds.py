"""Rounds: pairing and seating them on live tables, taking in the results,
and moving on when every game of the round has ended."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from games.models import Game, GameEvent
from tournaments import notify
from tournaments.formats import knockout, multitable, swiss
from tournaments.models import Board, BoardSeat, Entry, Format, Round, Tournament
from tournaments.standings import (
    finished_boards,
    multitable_rows,
    played_pairs,
    swiss_history,
)

from .absence import drop_absent
from .arena import arena_take_result
from .boards import board_seat
from .finishing import tournament_finish
from .locking import locked_tournament


def round_start(tournament: Tournament, number: int, now) -> Round:
    """Pair or seat round ``number`` and start its games (under the lock)."""
    in_play = list(
        tournament.entries.filter(status=Entry.Status.PLAYING)
        .select_related("user")
        .order_by("seed", "pk")
    )
    boards = finished_boards(tournament)
    is_final = (
        tournament.format == Format.MULTITABLE
        and tournament.final_table
        and number == tournament.rounds
    )
    score_groups = {}
    if tournament.format == Format.SWISS:
        groups, score_groups = _swiss_groups(in_play, boards)
    elif tournament.format == Format.KNOCKOUT:
        groups = _knockout_groups(tournament, in_play, number)
    else:
        groups = _multitable_groups(tournament, in_play, boards, is_final)

    round_ = Round.objects.create(
        tournament=tournament, number=number, is_final_table=is_final
    )
    by_id = {entry.pk: entry for entry in in_play}
    for board_number, group in enumerate(groups, start=1):
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
    _note_score_groups(round_, score_groups)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    notify.changed_on_commit(tournament.pk, "round")
    # Every game of the round may already be over (all byes): move on.
    _advance_if_done(tournament, round_, now)
    return round_


def _swiss_groups(in_play: list[Entry], boards: list[Board]) -> tuple[list, dict]:
    """The round's boards (pairs, then the bye), and each player's points
    before the round with the float the pairing gives them."""
    results, byes = swiss_history(boards)
    ids = [entry.pk for entry in in_play]
    table = swiss.standings(results, byes, players=ids)
    ranked = [(s.player, s.score) for s in table if s.player in set(ids)]
    pairs, bye = swiss.pair_round(ranked, (played_pairs(boards), byes))
    groups = [tuple(pair) for pair in pairs]
    if bye is not None:
        groups.append((bye,))
    before = dict(ranked)
    floated = swiss.floats(before, pairs, bye)
    return groups, {
        pk: (Decimal(score.numerator) / score.denominator, floated.get(pk, ""))
        for pk, score in before.items()
    }


def _note_score_groups(round_: Round, score_groups: dict) -> None:
    if not score_groups:
        return
    seats = list(BoardSeat.objects.filter(board__round=round_, entry__isnull=False))
    for seat in seats:
        seat.points_before, seat.floated = score_groups[seat.entry_id]
    BoardSeat.objects.bulk_update(seats, ["points_before", "floated"])


def _knockout_groups(
    tournament: Tournament, in_play: list[Entry], number: int
) -> list[tuple]:
    """The bracket's matches in order, each holding only the players still
    in play: one player is a bye, none an empty slot (both withdrawn). The
    board numbers keep the bracket, so every match stays in place."""
    if number == 1:
        matches = knockout.bracket([entry.pk for entry in in_play])
    else:
        previous = (
            Board.objects.filter(round__tournament=tournament, round__number=number - 1)
            .prefetch_related("seats__entry")
            .order_by("number")
        )
        played, through = [], set()
        for board in previous:
            seats = list(board.seats.all())
            ids = [s.entry_id for s in seats] + [None, None]
            played.append((ids[0], ids[1]))
            through |= {
                s.entry_id for s in seats if s.entry.status != Entry.Status.ELIMINATED
            }
        matches = knockout.next_round(played, through)
    playing = {entry.pk for entry in in_play}
    return [tuple(p for p in match if p in playing) for match in matches]


def _multitable_groups(
    tournament: Tournament, in_play: list[Entry], boards: list[Board], is_final: bool
) -> list[tuple]:
    ids = {entry.pk for entry in in_play}
    rows = multitable_rows(tournament, boards)
    order = [row.entry.pk for row in rows if row.entry.pk in ids]
    if is_final:
        finalists = order[: multitable.TABLE_SIZE]
        return [tuple(finalists) + (None,) * (multitable.TABLE_SIZE - len(finalists))]
    tables = multitable.seat_round(order, played_pairs(boards))
    return [
        tuple(None if p is multitable.BOT else p for p in table) for table in tables
    ]


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
        if board.finished or tournament.status != Tournament.Status.RUNNING:
            return False
        game = board.table.game
        if game.status == Game.Status.PLAYING:
            return False
        _record(board, game)
        notify.changed_on_commit(tournament.pk, "result")
        if tournament.format == Format.ARENA:
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


def _close_round(tournament: Tournament, round_: Round, now) -> None:
    """Round over: knocked-out players leave a knockout, and whoever missed
    the whole round (made no move of their own) and is not on the site is
    withdrawn."""
    seats = list(
        BoardSeat.objects.filter(
            board__round=round_, entry__isnull=False
        ).select_related("entry", "board")
    )
    if tournament.format == Format.KNOCKOUT:
        for loser in _knockout_losers(seats):
            Entry.objects.filter(pk=loser, status=Entry.Status.PLAYING).update(
                status=Entry.Status.ELIMINATED
            )
    drop_absent(seats)
    round_.status = Round.Status.FINISHED
    round_.finished_at = now
    round_.save(update_fields=["status", "finished_at"])


def _knockout_losers(seats: list[BoardSeat]) -> list[int]:
    """Per two-player board, the entry that does not go through: the loser;
    after a draw or a game called off, the lower seed."""
    by_board: dict[int, list[BoardSeat]] = {}
    for seat in seats:
        by_board.setdefault(seat.board_id, []).append(seat)
    losers = []
    for pair in by_board.values():
        if len(pair) != 2:
            continue
        winners = [s for s in pair if s.won]
        if len(winners) == 1:
            losers += [s.entry_id for s in pair if not s.won]
        else:
            lower = max(pair, key=lambda s: s.entry.seed or 0)
            losers.append(lower.entry_id)
    return losers


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
