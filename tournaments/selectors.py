"""Every read of tournaments that pages and the API share: the lists with
their counts, prize pools, a player's own entry and seat, the rounds with
their boards, the results.

Nothing here reads a game's state (its cards): of a game only its id, table
and status.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from django.db.models import Count, Prefetch, Q, QuerySet, Sum, prefetch_related_objects
from django.db.models.functions import Coalesce

from coins import services as coins
from coins.models import Account
from games.models import Game
from tournaments.formats.plugins import format_of
from tournaments.models import Board, BoardSeat, Entry, Round, Tournament
from tournaments.standings import Row, standings

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class Counts(TypedDict):
    """What ``tournaments_counted`` adds to each tournament."""

    player_count: int
    prizes_paid: int


if TYPE_CHECKING:
    CountedTournament = WithAnnotations[Tournament, Counts]

# Only what the pairings show of each game: never its state (the cards).
_GAME_FIELDS = ("pk", "table_id", "status")


def tournaments_counted() -> QuerySet[CountedTournament]:
    """Tournaments with ``player_count`` (entries not withdrawn: registered
    before the start, everyone who took part afterwards) and
    ``prizes_paid``."""
    return Tournament.objects.annotate(
        player_count=Count(
            "entries",
            filter=~Q(entries__status=Entry.Status.WITHDRAWN),
            distinct=True,
        ),
        prizes_paid=Coalesce(Sum("entries__prize"), 0),
    )


def pool_balance(tournament: Tournament) -> int:
    """Domino Coin in the tournament's prize pool now."""
    return coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL)


def pool_balances(tournaments) -> dict[str, int]:
    """Prize pool balances by pool ref, in one query for a page of them."""
    refs = [t.pool_ref for t in tournaments]
    return dict(
        Account.objects.filter(
            kind=Account.Kind.TOURNAMENT_POOL, ref__in=refs
        ).values_list("ref", "balance")
    )


def own_entry(tournament: Tournament, user) -> Entry | None:
    """The user's entry, withdrawn or not; None for nobody signed in."""
    if not user.is_authenticated:
        return None
    return tournament.entries.filter(user=user).first()


def registered_entries(tournament: Tournament) -> list[Entry]:
    """Entries registered and not yet playing, in the order they came."""
    return list(
        tournament.entries.filter(status=Entry.Status.REGISTERED)
        .select_related("user__profile")
        .order_by("registered_at", "pk")
    )


def entry_with_player(entry_id: int) -> Entry:
    return Entry.objects.select_related("tournament", "user__profile").get(pk=entry_id)


def standings_with_players(tournament: Tournament) -> list[Row]:
    """The standings, with every player's profile loaded in one query."""
    rows = standings(tournament)
    prefetch_related_objects([row.entry.user for row in rows], "profile")
    return rows


def final_results(tournament: Tournament) -> list[Entry]:
    """A finished tournament's placed entries, best first."""
    return list(
        tournament.entries.filter(place__isnull=False)
        .select_related("user__profile")
        .order_by("place", "seed", "pk")
    )


def rounds_with_boards(tournament: Tournament, *, newest_first: bool) -> list[Round]:
    """Rounds with their boards, seats, players and each board's game (its
    id and status only) loaded."""
    seats = BoardSeat.objects.select_related("entry__user__profile").order_by("number")
    boards = Board.objects.order_by("number").prefetch_related(
        Prefetch("seats", queryset=seats),
        "table",
        Prefetch("table__game", queryset=Game.objects.only(*_GAME_FIELDS)),
    )
    return list(
        tournament.round_set.order_by(
            "-number" if newest_first else "number"
        ).prefetch_related(Prefetch("boards", queryset=boards))
    )


def seat_of_user(tournament: Tournament, user) -> BoardSeat | None:
    """The user's seat in the round being played, if they have one."""
    if not user.is_authenticated:
        return None
    return (
        BoardSeat.objects.filter(
            board__round__tournament=tournament,
            board__round__number=tournament.current_round,
            board__round__status=Round.Status.PLAYING,
            board__is_bye=False,
            entry__user=user,
        )
        .select_related("board__table__game")
        # An arena's one round holds all of a player's games: the latest.
        .order_by("-board__number")
        .first()
    )


def boards_playing(tournament: Tournament) -> int:
    """Games of a running tournament being played now."""
    if tournament.status != Tournament.Status.RUNNING:
        return 0
    return Board.objects.filter(
        round__tournament=tournament, finished=False, table__isnull=False
    ).count()


@dataclass(frozen=True)
class NextGame:
    """What comes next for a player after a tournament game: ``state`` is
    ``seated`` (``table`` is their game now, ``began`` when its round, or
    in an arena the game, began), ``waiting`` (round ``round`` is paired
    once the ``playing`` games still being played end; ``last``: no round
    follows, the results do), ``free`` (an arena: paired again once
    another player is free), ``out`` (no longer in play) or ``over``."""

    tournament: Tournament
    state: str
    round: int | None = None
    table: int | None = None
    began: datetime | None = None
    playing: int = 0
    last: bool = False

    @property
    def continuous(self) -> bool:
        """Its tournament pairs each player again once free (an arena),
        rather than round by round."""
        return format_of(self.tournament.format).continuous


def next_after(table_id: int, user) -> NextGame | None:
    """For ``user``, what follows the game at ``table_id``; None when the
    table is no tournament's or the user plays no part in that tournament."""
    board = (
        Board.objects.filter(table_id=table_id)
        .select_related("round__tournament")
        .first()
    )
    if board is None or not user.is_authenticated:
        return None
    tournament = board.round.tournament
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return NextGame(tournament, "over")
    entry = tournament.entries.filter(user=user).first()
    if entry is None:
        return None
    if entry.status != Entry.Status.PLAYING:
        return NextGame(tournament, "out")
    seat = (
        BoardSeat.objects.filter(
            entry=entry, board__finished=False, board__table__isnull=False
        )
        .exclude(board__table_id=table_id)
        .select_related("board__round", "board__table")
        .order_by("-board__pk")
        .first()
    )
    # Played continuously, a player's game begins with its table, not a round.
    continuous = format_of(tournament.format).continuous
    if seat is not None and seat.board.table is not None:  # the query's
        round_ = seat.board.round
        began = seat.board.table.created_at if continuous else round_.started_at
        return NextGame(tournament, "seated", round_.number, seat.board.table_id, began)
    if continuous:
        return NextGame(tournament, "free")
    current = tournament.round_set.order_by("-number").first()
    assert current is not None  # an entry plays once the first round began
    playing = Board.objects.filter(
        round=current, table__game__status=Game.Status.PLAYING
    ).count()
    return NextGame(
        tournament,
        "waiting",
        current.number + 1,
        playing=playing,
        last=current.number >= tournament.rounds,
    )
