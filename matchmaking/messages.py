"""The quick-play socket's messages (docs/protocol.md, "The other
sockets"), each a type (``common.messages``): the page's ping is answered
with the player's status; a match or a removal is told as it happens,
through the user's quick-play group (``matchmaking.notify``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from common.messages import ClientOut, Group, GroupMessage


@dataclass(frozen=True, slots=True)
class Status(ClientOut):
    """Where the player stands in the pool (``selectors.PoolStatus``)."""

    TYPE: ClassVar[str] = "status"
    waiting: bool
    waited: int
    window: int | None
    players: int
    table: int | None
    url: str | None
    bots_in: int | None


@dataclass(frozen=True, slots=True)
class Matched(ClientOut):
    """The player was seated: go to the table."""

    TYPE: ClassVar[str] = "matched"
    table: int
    url: str


@dataclass(frozen=True, slots=True)
class Removed(ClientOut):
    """The player left the pool without a match (``away``, ``refused``,
    ``cancelled``)."""

    TYPE: ClassVar[str] = "removed"
    reason: str


@dataclass(frozen=True, slots=True)
class QuickplayJoined(GroupMessage):
    """The player joined a pool (``entry``: its fields, ``joined_at`` in
    Unix seconds); the socket answers its pings from it. Not passed on."""

    TYPE: ClassVar[str] = "quickplay.joined"
    entry: dict[str, Any]


@dataclass(frozen=True, slots=True)
class QuickplayMessage(GroupMessage):
    """A ``Matched`` or ``Removed`` (encoded), passed on to the page."""

    TYPE: ClassVar[str] = "quickplay.message"
    message: dict[str, Any]


# The user's quick-play sockets (``matchmaking.notify.user_group``).
QUICKPLAY = Group("quickplay", (QuickplayJoined, QuickplayMessage))
