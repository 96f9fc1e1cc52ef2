"""The tournaments' socket messages (docs/protocol.md), each a type
(``common.messages``): a tournament page hears that something changed;
a player's personal sockets hear of their next game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from common.messages import ClientOut, Group, GroupMessage


@dataclass(frozen=True, slots=True)
class TournamentNews(ClientOut):
    """Something of the tournament changed (``what``): read it again."""

    TYPE: ClassVar[str] = "tournament"
    what: str


@dataclass(frozen=True, slots=True)
class NextGame(ClientOut):
    """To a player, on /ws/me/: seated at a new game, or (``table`` None,
    the tournament's page as ``url``) the tournament is over."""

    TYPE: ClassVar[str] = "next_game"
    tournament: int
    table: int | None
    url: str


@dataclass(frozen=True, slots=True)
class TournamentChanged(GroupMessage):
    TYPE: ClassVar[str] = "tournament.changed"
    what: str = ""


# A tournament page's sockets (``tournaments.notify.tournament_group``).
TOURNAMENT = Group("tournament", (TournamentChanged,))
