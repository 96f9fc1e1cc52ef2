"""The games' socket messages (docs/protocol.md), each a type
(``common.messages``): what the table's socket takes from its page, what
the table's, the waiting table's and the lobby's sockets send, and what the
channel layer carries to them.

The frames a page sends are read here into these types, and a game's owner
is told a command (``games.live.commands``) made of them; the answers and
news are built as these types and encoded once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from common.messages import (
    ClientIn,
    ClientOut,
    Group,
    GroupMessage,
    Ping,
    Refused,
    an_id,
    by_type,
    valid_id,
)

# What the table's page sends (Client messages).


@dataclass(frozen=True, slots=True)
class SyncIn(ClientIn):
    """Ask for a ``sync``, with the public steps after ``version``."""

    TYPE: ClassVar[str] = "sync"
    version: int | None

    @classmethod
    def read(cls, frame: Mapping[str, object]) -> Self:
        version = frame.get("version")
        if version is not None and type(version) is not int:
            raise Refused(None, "'version' must be an integer", "bad_message")
        return cls(version)


@dataclass(frozen=True, slots=True)
class ActionIn(ClientIn):
    """A move, chosen at ``version``."""

    TYPE: ClassVar[str] = "action"
    id: str
    version: int
    action: object

    @classmethod
    def read(cls, frame: Mapping[str, object]) -> Self:
        message_id, version = frame.get("id"), frame.get("version")
        if not isinstance(message_id, str) or not valid_id(message_id):
            message_id = None
        if message_id is None or type(version) is not int:
            raise Refused(
                message_id,
                "an action needs a string 'id' and a 'version'",
                "bad_message",
            )
        return cls(message_id, version, frame.get("action"))


class _WithId(ClientIn):
    """A message whose only field is its ``id``, None when not a valid
    one (the answer then names none)."""

    __slots__ = ()

    @classmethod
    def read(cls, frame: Mapping[str, object]) -> Self:
        return cls(an_id(frame))  # type: ignore[call-arg]


@dataclass(frozen=True, slots=True)
class ResignIn(_WithId):
    TYPE: ClassVar[str] = "resign"
    id: str | None


@dataclass(frozen=True, slots=True)
class AbortIn(_WithId):
    TYPE: ClassVar[str] = "abort"
    id: str | None


@dataclass(frozen=True, slots=True)
class RejoinIn(_WithId):
    TYPE: ClassVar[str] = "rejoin"
    id: str | None


@dataclass(frozen=True, slots=True)
class RematchIn(_WithId):
    """Agree to the rematch (making the offer if none is open)."""

    TYPE: ClassVar[str] = "rematch"
    id: str | None


@dataclass(frozen=True, slots=True)
class RematchDeclineIn(_WithId):
    TYPE: ClassVar[str] = "rematch_decline"
    id: str | None


# For the game's owner.
GameIn = Ping | SyncIn | ActionIn | ResignIn | AbortIn | RejoinIn
# The socket's own (a finished game has no owner).
RematchCall = RematchIn | RematchDeclineIn
TableIn = GameIn | RematchCall
TABLE_TAKES: dict[str, type[TableIn]] = by_type(
    Ping, SyncIn, ActionIn, ResignIn, AbortIn, RejoinIn, RematchIn, RematchDeclineIn
)


# What the sockets send (Server messages).


# The game socket's protocol versions (docs/protocol.md, Protocol versions): a socket
# asks for one as it opens (``?protocol=2``) and speaks the highest the
# server has up to it; 1 without asking. From 2 a move's answer rides on the
# mover's update instead of a frame of its own.
PROTOCOLS = (1, 2)
FOLDED_ACKS = 2


def protocol_asked(query_string: bytes) -> int:
    """The version a game socket speaks, from its address's query string:
    the highest of ``PROTOCOLS`` up to the one asked for (a newer client
    meets an older server so), 1 when none or no number is asked for."""
    for name, _, value in (
        part.partition(b"=") for part in query_string.split(b"&") if part
    ):
        if name == b"protocol" and value.isdigit():
            asked = int(value)
            return max((p for p in PROTOCOLS if p <= asked), default=PROTOCOLS[0])
    return PROTOCOLS[0]


@dataclass(frozen=True, slots=True)
class Sync(ClientOut):
    """A full snapshot for the recipient (``games.snapshots``), and the
    public steps after ``since`` when they are at hand."""

    TYPE: ClassVar[str] = "sync"
    FLAT: ClassVar[frozenset[str]] = frozenset({"snapshot"})
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"protocol"})
    since: int | None
    events: list[Any]
    last_trick: dict[str, Any] | None
    snapshot: Mapping[str, Any]
    # The socket's protocol version, in the sync that answers its opening,
    # when it asked for one (docs/protocol.md, Protocol versions).
    protocol: int | None = None


@dataclass(frozen=True, slots=True)
class Update(ClientOut):
    """What a step changed: its public events, the recipient's position."""

    TYPE: ClassVar[str] = "update"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"ack"})
    version: int
    status: str
    deadline: str | None
    events: list[Any]
    position: dict[str, Any]
    # Protocol 2: the id of the mover's action this step answers, in the
    # mover's own update (no ``ack`` frame then).
    ack: str | None = None


@dataclass(frozen=True, slots=True)
class Ack(ClientOut):
    """A player's command done: the version after it, if it made one."""

    TYPE: ClassVar[str] = "ack"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"version"})
    id: str | None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Presence(ClientOut):
    TYPE: ClassVar[str] = "presence"
    version: int
    seats: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Back(ClientOut):
    """The player came back within the grace: this much of it was left."""

    TYPE: ClassVar[str] = "back"
    grace_left: float


@dataclass(frozen=True, slots=True)
class Lobby(ClientOut):
    """The tables changed: read them again."""

    TYPE: ClassVar[str] = "lobby"


@dataclass(frozen=True, slots=True)
class RematchState(ClientOut):
    """Where a finished game's rematch offer stands
    (``games.selectors.rematch_message``, which the API gives too)."""

    TYPE: ClassVar[str] = "rematch"
    FLAT: ClassVar[frozenset[str]] = frozenset({"offer"})
    offer: Mapping[str, Any]


# What the channel layer carries to the games' sockets.


@dataclass(frozen=True, slots=True)
class LobbyChanged(GroupMessage):
    TYPE: ClassVar[str] = "lobby.changed"


@dataclass(frozen=True, slots=True)
class RematchChanged(GroupMessage):
    """The rematch offer changed: ``message`` is its ``rematch`` message."""

    TYPE: ClassVar[str] = "rematch.message"
    message: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableText(GroupMessage):
    """A message (JSON text) from the game's owner in another process."""

    TYPE: ClassVar[str] = "table.text"
    text: str


@dataclass(frozen=True, slots=True)
class TableClose(GroupMessage):
    """The owner in another process closes the socket."""

    TYPE: ClassVar[str] = "table.close"
    code: int


# Every lobby page and waiting table (``games.services.notify``).
LOBBY = Group("lobby", (LobbyChanged,))
# A finished game's seated players (``games.services.notify.rematch_group``).
REMATCH = Group("rematch", (RematchChanged,))
# A table socket's own channel, from its game's owner elsewhere (``relay``).
TABLE_OWNER = Group("table socket", (TableText, TableClose))
