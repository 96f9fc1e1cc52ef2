"""Every round's boards as the tournament page shows them: who sat where,
how each game ended, and in a Swiss the score groups of the pairing (each
player's points before the round, and who floated up or down)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.selectors import display_name
from games.models import Game
from tournaments import selectors
from tournaments.formats.plugins import format_of
from tournaments.models import Board, Round, Tournament
from tournaments.views.numbers import number


@dataclass
class SeatView:
    name: str
    username: str | None
    place: int | None
    score: int | None
    won: bool
    absent: bool
    is_you: bool
    # Swiss: points before the round ("" when not noted) and "up", "down"
    # or "" for the float the pairing gave.
    points_before: str = ""
    floated: str = ""


@dataclass
class BoardView:
    number: int
    is_bye: bool
    finished: bool
    called_off: bool
    watch_url: str | None
    replay_url: str | None
    is_yours: bool
    seats: list[SeatView] = field(default_factory=list)
    # Swiss: the score group the board opens, on its first board only.
    group: str = ""


@dataclass
class RoundView:
    number: int
    playing: bool
    is_final_table: bool
    boards: list[BoardView]
    # Swiss rounds paired with the score groups noted (not those paired
    # before they were kept).
    has_score_groups: bool = False


def _board_view(board: Board, user, live: bool) -> BoardView:
    seats = []
    for seat in board.seats.all():
        entry_user = seat.entry.user if seat.entry is not None else None
        seats.append(
            SeatView(
                name=display_name(entry_user) if entry_user else _("Bot"),
                username=entry_user.get_username() if entry_user else None,
                place=seat.place,
                score=seat.score,
                won=seat.won,
                absent=seat.absent,
                is_you=bool(
                    entry_user and user.is_authenticated and entry_user.pk == user.pk
                ),
                points_before=""
                if seat.points_before is None
                else number(seat.points_before),
                floated=seat.floated,
            )
        )
    game = getattr(board.table, "game", None) if board.table_id else None
    called_off = (board.finished and any(s.place is None for s in seats)) or (
        game is not None and game.status == Game.Status.ABORTED
    )
    return BoardView(
        number=board.number,
        is_bye=board.is_bye,
        finished=board.finished,
        called_off=called_off,
        watch_url=(
            reverse("games:table", args=[board.table_id])
            if live and board.table_id and not board.finished and not called_off
            else None
        ),
        replay_url=(
            reverse("games:replay", args=[game.pk])
            if game is not None and board.finished and not called_off
            else None
        ),
        is_yours=any(s.is_you for s in seats),
        seats=seats,
    )


def _mark_score_groups(boards: list[BoardView]) -> bool:
    """Label the first board of each score group with the group's points
    (the higher score of the board: a downfloater plays in the group below
    but belongs to the one it left, as on an arbiter's list). False when the
    round has no points noted."""
    previous = None
    for board in boards:
        noted = [s.points_before for s in board.seats if s.points_before]
        if not noted:
            return False
        top = max(noted, key=float)
        if top != previous:
            board.group = top
            previous = top
    return bool(boards)


def round_views(tournament: Tournament, user) -> list[RoundView]:
    # A cancelled tournament's unfinished games were called off: none to watch.
    live = tournament.status == Tournament.Status.RUNNING
    rounds = selectors.rounds_with_boards(tournament, newest_first=True)
    plugin = format_of(tournament.format)
    # An arena's one round holds every game: the latest first.
    latest_first = plugin.continuous
    views = []
    for round_ in rounds:
        boards = [
            _board_view(board, user, live)
            for board in list(round_.boards.all())[:: -1 if latest_first else 1]
        ]
        views.append(
            RoundView(
                number=round_.number,
                playing=live and round_.status == Round.Status.PLAYING,
                is_final_table=round_.is_final_table,
                boards=boards,
                has_score_groups=plugin.shows_score_groups
                and _mark_score_groups(boards),
            )
        )
    return views
