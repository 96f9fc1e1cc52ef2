"""Reading the finished boards the formats rank and pair by, each board
with its seats and round loaded (``tournaments.standings.finished_boards``).
Players are identified by their entry ids throughout."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import cast

from tournaments.formats import arena, multitable

from .base import BoardLike, EntryLike


def has_result(board: BoardLike) -> bool:
    """A game that was called off (no places) counts for nobody."""
    return all(seat.place is not None for seat in board.seats.all())


def played_pairs(boards: Sequence[BoardLike]) -> set[frozenset[int]]:
    """Every two entries who already met at a table (games called off too)."""
    met: set[frozenset[int]] = set()
    for board in boards:
        ids = [s.entry_id for s in board.seats.all() if s.entry_id is not None]
        met |= {frozenset((a, b)) for a in ids for b in ids if a != b}
    return met


def swiss_history(
    boards: Sequence[BoardLike],
) -> tuple[list[tuple[int, int, int | None]], list[int]]:
    """``(results, byes)`` for ``swiss.standings``, by entry id."""
    results: list[tuple[int, int, int | None]] = []
    byes: list[int] = []
    for board in boards:
        seats = list(board.seats.all())
        if board.is_bye:
            byes.append(entry_id(seats[0].entry_id))
            continue
        if not has_result(board) or len(seats) != 2:
            continue
        a, b = seats
        winners = [entry_id(s.entry_id) for s in seats if s.won]
        winner = winners[0] if len(winners) == 1 else None
        results.append((entry_id(a.entry_id), entry_id(b.entry_id), winner))
    return results, byes


def arena_history(boards: Sequence[BoardLike]) -> dict[int, list[tuple[str, int]]]:
    """Entry id -> (result, opponent's entry id) of each game with a result,
    in the order played (a player's boards follow one another)."""
    history: dict[int, list[tuple[str, int]]] = {}
    for board in boards:
        seats = list(board.seats.all())
        if board.is_bye or not has_result(board) or len(seats) != 2:
            continue
        winners = [s for s in seats if s.won]
        for seat, other in ((seats[0], seats[1]), (seats[1], seats[0])):
            if len(winners) != 1:
                result = arena.DRAW
            else:
                result = arena.WIN if seat.won else arena.LOSS
            history.setdefault(entry_id(seat.entry_id), []).append(
                (result, entry_id(other.entry_id))
            )
    return history


def last_opponents(boards: Sequence[BoardLike]) -> dict[Hashable, Hashable]:
    """Entry id -> the entry met in their latest game (called off too)."""
    last: dict[Hashable, Hashable] = {}
    for board in boards:
        ids = [s.entry_id for s in board.seats.all()]
        if len(ids) == 2:
            last[ids[0]], last[ids[1]] = ids[1], ids[0]
    return last


def multitable_results(
    boards: Sequence[BoardLike],
) -> list[list[tuple[Hashable, int, int]]]:
    """Each game with a result (every seat placed), as
    ``multitable.standings`` takes it."""
    rows: list[list[tuple[Hashable, int, int]]] = []
    for board in boards:
        if board.is_bye or not has_result(board):
            continue
        rows.append(
            [
                (
                    multitable.BOT if s.entry_id is None else s.entry_id,
                    cast(int, s.place),
                    s.score or 0,
                )
                for s in board.seats.all()
            ]
        )
    return rows


def ranked_places(keys: Sequence[object]) -> list[int]:
    """Competition ranking (1, 1, 3) of items already sorted best first, by
    their comparison keys."""
    places: list[int] = []
    for i, key in enumerate(keys):
        places.append(places[-1] if i and key == keys[i - 1] else i + 1)
    return places


def by_id(entries: Sequence[EntryLike]) -> dict[int, EntryLike]:
    return {entry.pk: entry for entry in entries}


def entry_id(player: Hashable | None) -> int:
    """A player as the pure rules hand it back: the entry id they were
    given (a two-player board's seats are always people's, never a bot's)."""
    return cast(int, player)
