"""Arena tournaments: one round holds every game; whenever a game ends its
players are free again and are paired with whoever else is free, until the
time is up. Games still being played then finish and count; the tournament
finishes when the last of them has ended.

Everything here runs under the tournament's lock (see the package), so a
game's end taken in twice, or taken in while the beat's tick looks at the
same arena, pairs each free player once.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments import notify
from tournaments.formats import arena
from tournaments.formats.plugins import continuous_formats, format_of
from tournaments.formats.plugins.history import last_opponents
from tournaments.models import Board, BoardSeat, Entry, Round, Tournament
from tournaments.standings import entries_taking_part, finished_boards

from .absence import drop_absent
from .boards import board_seat
from .finishing import tournament_finish
from .locking import locked_tournament


def arena_start(tournament: Tournament, now) -> Round:
    """The arena's one round, and the first pairings (under the lock)."""
    round_ = Round.objects.create(tournament=tournament, number=1)
    tournament.current_round = 1
    tournament.rounds = 1
    tournament.save(update_fields=["current_round", "rounds"])
    notify.changed_on_commit(tournament.pk, "round")
    arena_pair_free_players(tournament, round_, now)
    return round_


def arena_take_result(tournament: Tournament, board: Board, now) -> None:
    """A board's result is in: a player who made no move of their own in
    that game and is not on the site is out (the timer would only play for
    them again); the others are free to be paired, unless the time is up."""
    drop_absent(list(board.seats.all()))
    arena_carry_on(tournament, board.round, now)


def arena_carry_on(tournament: Tournament, round_: Round, now) -> None:
    """Pair whoever is free while there is time; once it is up and the last
    game has ended, finish."""
    if now < tournament.ends_at:
        arena_pair_free_players(tournament, round_, now)
    elif not round_.boards.filter(finished=False).exists():
        round_.status = Round.Status.FINISHED
        round_.finished_at = now
        round_.save(update_fields=["status", "finished_at"])
        tournament_finish(tournament, now)


def arena_pair_free_players(tournament: Tournament, round_: Round, now) -> list[Board]:
    """Seat every pair the free players make, best standings first."""
    busy = set(
        BoardSeat.objects.filter(
            board__round=round_, board__finished=False, entry__isnull=False
        ).values_list("entry_id", flat=True)
    )
    boards = finished_boards(tournament)
    standings = format_of(tournament.format).standings(
        tournament, boards, entries_taking_part(tournament)
    )
    free = [
        row.entry
        for row in standings
        if row.entry.status == Entry.Status.PLAYING and row.entry.pk not in busy
    ]
    by_id = {entry.pk: entry for entry in free}
    pairs = arena.pair_free(
        [entry.pk for entry in free], last_opponents(boards), others_playing=bool(busy)
    )
    if not pairs:
        return []
    number = round_.boards.count()
    seated = [
        board_seat(tournament, round_, number + index, [by_id[a], by_id[b]], now)
        for index, (a, b) in enumerate(pairs, start=1)
    ]
    notify.changed_on_commit(tournament.pk, "round")
    return seated


def arena_tick(*, now=None) -> int:
    """Pair anyone still free and finish every arena whose time is up
    (beat). Returns the arenas that changed."""
    now = now or timezone.now()
    running = Tournament.objects.filter(
        format__in=continuous_formats(), status=Tournament.Status.RUNNING
    ).values_list("pk", flat=True)
    changed = 0
    for tournament_id in list(running):
        with transaction.atomic():
            tournament = locked_tournament(tournament_id)
            if tournament.status != Tournament.Status.RUNNING:
                continue
            round_ = tournament.round_set.get(number=1)
            boards_before = round_.boards.count()
            arena_carry_on(tournament, round_, now)
            tournament.refresh_from_db(fields=["status"])
            finished = tournament.status != Tournament.Status.RUNNING
            changed += finished or round_.boards.count() != boards_before
    return changed
