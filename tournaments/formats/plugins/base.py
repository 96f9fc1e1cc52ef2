"""What a tournament format tells the rest of the site, behind one interface.

A format is one module of this package holding one ``TournamentFormat``;
the rest of the site asks it through ``format_of(tournament.format)`` and
never compares the format's value itself. The format reads only what the
services and the standings have loaded (a tournament, its entries, its
finished boards with their seats and rounds) and writes nothing: the
database stays with them. The shapes it reads are the Protocols below,
which the models meet.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, ClassVar, Protocol

from django.utils.translation import ngettext

# What the format reads


class TournamentLike(Protocol):
    """A tournament's settings and where it stands (``Tournament``)."""

    @property
    def status(self) -> str: ...
    @property
    def rounds(self) -> int: ...
    @property
    def final_table(self) -> bool: ...
    @property
    def points_for_places(self) -> list[int]: ...
    @property
    def duration_minutes(self) -> int: ...
    @property
    def started_at(self) -> Any: ...


class SettingsLike(Protocol):
    """A tournament's or a schedule's settings, as the checks read them."""

    @property
    def rounds(self) -> int | None: ...
    @property
    def final_table(self) -> bool: ...
    @property
    def min_players(self) -> int | None: ...
    @property
    def duration_minutes(self) -> int | None: ...


class EntryLike(Protocol):
    """A player's entry (``Entry``)."""

    @property
    def pk(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def rating(self) -> int | None: ...


class SeatLike(Protocol):
    """A seat of a board (``BoardSeat``); ``entry_id`` is None for a bot."""

    @property
    def entry_id(self) -> int | None: ...
    @property
    def board_id(self) -> int: ...
    @property
    def place(self) -> int | None: ...
    @property
    def score(self) -> int | None: ...
    @property
    def won(self) -> bool: ...


class SeatsLike(Protocol):
    def all(self) -> Iterable[SeatLike]: ...


class RoundLike(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def is_final_table(self) -> bool: ...


class BoardLike(Protocol):
    """A board (``Board``), its seats and round loaded with it."""

    @property
    def number(self) -> int: ...
    @property
    def is_bye(self) -> bool: ...
    @property
    def round(self) -> RoundLike: ...
    @property
    def seats(self) -> SeatsLike: ...


# What the format answers


@dataclass
class Row:
    """One line of the standings table."""

    entry: Any  # an ``Entry``: the standings hand back what they were given
    place: int
    points: Fraction = Fraction(0)
    # Swiss: Buchholz and Sonneborn-Berger; tables of four: total game score.
    tiebreaks: tuple[Fraction, ...] = ()
    games: int = 0
    note: str = ""
    details: dict[str, Any] = field(default_factory=dict)


# An entry id, or None for a seat a bot takes (or the empty half of a bye).
Group = tuple[int | None, ...]


@dataclass(frozen=True)
class RoundPlan:
    """A round to seat: its boards in order (a board of one player is a
    bye), whether it is a final table, and what to note on each player's
    seat (Swiss: the points before the round and the float)."""

    groups: list[Group]
    is_final_table: bool = False
    score_groups: dict[int, tuple[Decimal, str]] = field(default_factory=dict)


class TournamentFormat:
    """One format's answers. The defaults are those of a format played in
    rounds, all of them seated at once, where every place scores points."""

    # The ``Format`` value it answers for.
    value: ClassVar[str]
    # Players at a table: which game categories it suits.
    players_per_table: ClassVar[int] = 2
    # Played for a fixed time in one round, each player paired again as
    # soon as they are free (``tournaments.services.arena``), rather than in
    # rounds (``tournaments.services.rounds``).
    continuous: ClassVar[bool] = False
    # The standings show points (a knockout's show who is still in).
    shows_points: ClassVar[bool] = True
    # The pairings show the score groups noted when each round was paired.
    shows_score_groups: ClassVar[bool] = False
    # The tie-breaks' names in the API, in the order of ``Row.tiebreaks``.
    tiebreak_keys: ClassVar[tuple[str, ...]] = ()

    def tiebreak_labels(self) -> list[str]:
        """The tie-breaks' headings on the page, translated."""
        return []

    def rules(self, tournament: TournamentLike) -> list[str]:
        """The format's sentences at the head of the page's rules."""
        return [self.rounds_sentence(tournament)]

    def rounds_sentence(self, tournament: TournamentLike) -> str:
        return ngettext(
            "It is played over %(rounds)d round.",
            "It is played over %(rounds)d rounds.",
            tournament.rounds,
        ) % {"rounds": tournament.rounds}

    def check_settings(self, settings: SettingsLike) -> dict[str, str]:
        """Field name -> what is wrong with the settings for this format."""
        return {}

    def rounds_at_start(self, players: int) -> int | None:
        """The rounds to play, when the field decides them at the start;
        None keeps the rounds set."""
        return None

    def standings(
        self,
        tournament: TournamentLike,
        boards: Sequence[BoardLike],
        entries: Sequence[EntryLike],
    ) -> list[Row]:
        """The standings from the finished ``boards`` (in order of play) of
        the ``entries`` that took part (in seed order)."""
        raise NotImplementedError

    def plan_round(
        self,
        tournament: TournamentLike,
        number: int,
        in_play: Sequence[EntryLike],
        boards: Sequence[BoardLike],
        entries: Sequence[EntryLike],
    ) -> RoundPlan:
        """Round ``number``'s boards for the entries ``in_play`` (in seed
        order), from the finished ``boards`` of the ``entries``."""
        raise NotImplementedError(f"{self.value} is not played in rounds")

    def knocked_out(
        self, seats: Sequence[SeatLike], entries: Sequence[EntryLike]
    ) -> list[int]:
        """The entries a finished round puts out of the tournament."""
        return []
