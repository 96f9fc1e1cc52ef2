"""Standings and final places, computed from the boards' results.

Nothing here writes: the database holds who sat where and how each game
ended; the ranking rules are the pure functions of ``tournaments.formats``.
Players are identified by their entry ids throughout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.formats import arena, multitable, swiss
from tournaments.models import Board, Entry, Format, Tournament


@dataclass
class Row:
    """One line of the standings table."""

    entry: Entry
    place: int
    points: Fraction = Fraction(0)
    # Swiss: Buchholz and Sonneborn-Berger; tables of four: total game score.
    tiebreaks: tuple = ()
    games: int = 0
    note: str = ""
    details: dict = field(default_factory=dict)


def finished_boards(tournament: Tournament) -> list[Board]:
    """Every board whose result is in (byes included), in order of play."""
    return list(
        Board.objects.filter(round__tournament=tournament, finished=True)
        .select_related("round")
        .prefetch_related("seats")
        .order_by("round__number", "number")
    )


def _has_result(board: Board) -> bool:
    """A game that was called off (no places) counts for nobody."""
    return all(seat.place is not None for seat in board.seats.all())


def swiss_history(boards: list[Board]) -> tuple[list, list]:
    """``(results, byes)`` for :func:`swiss.standings`, by entry id."""
    results, byes = [], []
    for board in boards:
        seats = list(board.seats.all())
        if board.is_bye:
            byes.append(seats[0].entry_id)
            continue
        if not _has_result(board) or len(seats) != 2:
            continue
        a, b = seats
        winners = [s.entry_id for s in seats if s.won]
        winner = winners[0] if len(winners) == 1 else None
        results.append((a.entry_id, b.entry_id, winner))
    return results, byes


def played_pairs(boards: list[Board]) -> set[frozenset]:
    """Every two entries who already met at a table (games called off too)."""
    met = set()
    for board in boards:
        ids = [s.entry_id for s in board.seats.all() if s.entry_id is not None]
        met |= {frozenset((a, b)) for a in ids for b in ids if a != b}
    return met


def arena_history(boards: list[Board]) -> dict[int, list[tuple[str, int]]]:
    """Entry id -> (result, opponent's entry id) of each game with a result,
    in the order played (a player's boards follow one another)."""
    history: dict[int, list[tuple[str, int]]] = {}
    for board in boards:
        seats = list(board.seats.all())
        if board.is_bye or not _has_result(board) or len(seats) != 2:
            continue
        winners = [s for s in seats if s.won]
        for seat, other in ((seats[0], seats[1]), (seats[1], seats[0])):
            if len(winners) != 1:
                result = arena.DRAW
            else:
                result = arena.WIN if seat.won else arena.LOSS
            history.setdefault(seat.entry_id, []).append((result, other.entry_id))
    return history


def last_opponents(boards: list[Board]) -> dict[int, int]:
    """Entry id -> the entry met in their latest game (called off too)."""
    last = {}
    for board in boards:
        ids = [s.entry_id for s in board.seats.all()]
        if len(ids) == 2:
            last[ids[0]], last[ids[1]] = ids[1], ids[0]
    return last


def multitable_results(boards: list[Board]) -> list[list[tuple]]:
    rows = []
    for board in boards:
        if board.is_bye or not _has_result(board):
            continue
        rows.append(
            [
                (
                    multitable.BOT if s.entry_id is None else s.entry_id,
                    s.place,
                    s.score or 0,
                )
                for s in board.seats.all()
            ]
        )
    return rows


def _ranked_places(keys: list) -> list[int]:
    """Competition ranking (1, 1, 3) of items already sorted best first, by
    their comparison keys."""
    places = []
    for i, key in enumerate(keys):
        places.append(places[-1] if i and key == keys[i - 1] else i + 1)
    return places


def _entries(tournament: Tournament) -> list[Entry]:
    """Everyone who took part: registered at the start (not withdrawn)."""
    return list(
        tournament.entries.exclude(
            status__in=[Entry.Status.REGISTERED, Entry.Status.WITHDRAWN]
        )
        .select_related("user")
        .order_by("seed", "pk")
    )


def swiss_rows(tournament: Tournament, boards: list[Board]) -> list[Row]:
    entries = {e.pk: e for e in _entries(tournament)}
    results, byes = swiss_history(boards)
    table = swiss.standings(results, byes, players=list(entries))
    keys = [s[1:] for s in table]
    games = {pk: 0 for pk in entries}
    for a, b, _ in results:
        games[a] += 1
        games[b] += 1
    for pk in byes:
        games[pk] += 1
    return [
        Row(
            entry=entries[s.player],
            place=place,
            points=s.score,
            tiebreaks=(s.buchholz, s.sonneborn_berger),
            games=games[s.player],
        )
        for s, place in zip(table, _ranked_places(keys), strict=True)
    ]


def multitable_rows(
    tournament: Tournament, boards: list[Board], skip_final: bool = True
) -> list[Row]:
    entries = {e.pk: e for e in _entries(tournament)}
    if skip_final:
        boards = [b for b in boards if not b.round.is_final_table]
    table = multitable.standings(
        multitable_results(boards), scheme=tournament.points_for_places
    )
    ranked = {s.player: s for s in table}
    order = [s.player for s in table] + [pk for pk in entries if pk not in ranked]
    keys = [
        (ranked[pk].points, ranked[pk].score) if pk in ranked else (-1, 0)
        for pk in order
    ]
    return [
        Row(
            entry=entries[pk],
            place=place,
            points=ranked[pk].points if pk in ranked else Fraction(0),
            tiebreaks=(ranked[pk].score,) if pk in ranked else (Fraction(0),),
            games=ranked[pk].tables if pk in ranked else 0,
        )
        for pk, place in zip(order, _ranked_places(keys), strict=True)
        if pk in entries
    ]


def arena_rows(tournament: Tournament, boards: list[Board]) -> list[Row]:
    entries = {e.pk: e for e in _entries(tournament)}
    history = arena_history(boards)
    games_of = {
        pk: [
            arena.Game(result, entries[opponent].rating or 0)
            for result, opponent in history.get(pk, [])
        ]
        for pk in entries
    }
    table = arena.standings(games_of)
    keys = [(s.points, s.performance) for s in table]
    return [
        Row(
            entry=entries[s.player],
            place=place,
            points=Fraction(s.points),
            # Shown whole: a performance rating is an estimate.
            tiebreaks=(Fraction(round(s.performance or 0)),),
            games=s.games,
            details={"streak": s.streak, "wins": s.wins},
        )
        for s, place in zip(table, _ranked_places(keys), strict=True)
    ]


def knockout_rows(tournament: Tournament, boards: list[Board]) -> list[Row]:
    """Still in, best seed first, then the knocked out, latest round first;
    a player knocked out in a round shares the place with the others who
    fell there (losers of the semi-finals are 3rd, of the quarter-finals 5th)."""
    entries = _entries(tournament)
    last_round = {}
    for board in boards:
        for seat in board.seats.all():
            last_round[seat.entry_id] = board.round.number
    total = tournament.rounds
    still_in = [e for e in entries if e.status != Entry.Status.ELIMINATED]
    out = [e for e in entries if e.status == Entry.Status.ELIMINATED]
    out.sort(key=lambda e: (-last_round.get(e.pk, 0), e.seed or 0))
    rows = []
    if tournament.status == Tournament.Status.FINISHED and len(still_in) == 1:
        rows.append(Row(entry=still_in[0], place=1))
    else:
        rows += [Row(entry=e, place=1) for e in still_in]
    for entry in out:
        fell_in = last_round.get(entry.pk, 1)
        rows.append(Row(entry=entry, place=2 ** (total - fell_in) + 1))
    for row in rows:
        row.games = sum(
            1 for b in boards for s in b.seats.all() if s.entry_id == row.entry.pk
        )
        row.note = "" if row.entry.status != Entry.Status.ELIMINATED else "out"
    return rows


def _with_final_table(tournament: Tournament, boards: list[Board]) -> list[Row]:
    """The final table decides places 1-4; everyone else follows by the
    standings of the rounds before it."""
    rows = multitable_rows(tournament, boards)
    final = [b for b in boards if b.round.is_final_table]
    if not final:
        return rows
    seats = [s for s in final[0].seats.all() if s.entry_id is not None]
    seats.sort(key=lambda s: s.place if s.place is not None else 99)
    finalist_keys = [s.place for s in seats]
    by_entry = {row.entry.pk: row for row in rows}
    result = []
    for seat, place in zip(seats, _ranked_places(finalist_keys), strict=True):
        row = by_entry.pop(seat.entry_id)
        row.place = place
        row.note = "final table"
        result.append(row)
    rest = list(by_entry.values())
    keys = [(r.points, r.tiebreaks) for r in rest]
    finalists = len(result)
    for row, place in zip(rest, _ranked_places(keys), strict=True):
        row.place = finalists + place
        result.append(row)
    return result


def standings(tournament: Tournament) -> list[Row]:
    """The standings now: every finished game counts, rounds in play too."""
    boards = finished_boards(tournament)
    if tournament.format == Format.SWISS:
        return swiss_rows(tournament, boards)
    if tournament.format == Format.KNOCKOUT:
        return knockout_rows(tournament, boards)
    if tournament.format == Format.ARENA:
        return arena_rows(tournament, boards)
    if tournament.final_table:
        return _with_final_table(tournament, boards)
    return multitable_rows(tournament, boards)


def final_places(tournament: Tournament) -> dict[int, int]:
    """Entry id -> final place, for the prizes."""
    return {row.entry.pk: row.place for row in standings(tournament)}
