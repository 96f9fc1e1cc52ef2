"""What a game's owner is told: each command a type, read once.

A command reaches an owner from one of its game's sockets (a frame the
player sent, ``from_frame``), from the site (``relay.tell_owner``) or from
another server process (a channel-layer message, ``from_message``). It is
read into one of the types here where it comes in, and turned back into a
plain dict (``to_message``) only to cross the channel layer, which carries
nothing else; everything between matches on the types.

Reading a socket's frame is also where a spectator's move is refused: the
player's commands carry the seat they are played from, so the owner never
needs to ask whose socket sent one.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar, TypeGuard

from common.errors import ApplicationError, NotAllowed

# Longest id a client may give a message (docs/protocol.md).
MAX_ID_LENGTH = 64


# The player's commands (docs/protocol.md, "Client messages"): each is
# answered on its socket with an ``ack`` or an ``error`` naming its ``id``.


@dataclass(frozen=True, slots=True)
class Action:
    """A move: ``action`` as the client sent it, played at ``version``."""

    kind: ClassVar[str] = "action"
    seat: int
    id: str
    version: int
    action: object


@dataclass(frozen=True, slots=True)
class Resign:
    kind: ClassVar[str] = "resign"
    seat: int
    id: str | None


@dataclass(frozen=True, slots=True)
class Abort:
    """Call the game off, before the first card (``LiveGame.decide_abort``)."""

    kind: ClassVar[str] = "abort"
    seat: int
    id: str | None


@dataclass(frozen=True, slots=True)
class Rejoin:
    """Take back, at its next turn, the seat a bot plays since its player
    left (a casual table only: ``LiveGame.ask_to_rejoin``)."""

    kind: ClassVar[str] = "rejoin"
    seat: int
    id: str | None


# The socket's own business with the owner.


@dataclass(frozen=True, slots=True)
class Sync:
    """Send the socket a snapshot, with the steps after ``since`` when the
    owner still holds them."""

    kind: ClassVar[str] = "sync"
    since: int | None


@dataclass(frozen=True, slots=True)
class Heard:
    """The socket is alive (its pings, passed on now and then)."""

    kind: ClassVar[str] = "heard"


# From the site.


@dataclass(frozen=True, slots=True)
class Reload:
    """Another writer changed the game (to ``version``; read it again in
    any case when None): the owner reads it again unless it already holds
    that version or a later one."""

    kind: ClassVar[str] = "reload"
    version: int | None = None


# Between server processes only: a socket in one process attached to its
# game's owner in another (``relay``).


@dataclass(frozen=True, slots=True)
class Attach:
    """A socket on ``channel`` attaches, for ``audience`` (a seat, or None
    for a spectator), wanting the steps after ``since``."""

    kind: ClassVar[str] = "attach"
    audience: int | None
    since: int | None
    channel: str


@dataclass(frozen=True, slots=True)
class Detach:
    kind: ClassVar[str] = "detach"


@dataclass(frozen=True, slots=True)
class Wake:
    """Nothing but "take the game over if it is yours" (a hand-over)."""

    kind: ClassVar[str] = "wake"


PlayerCommand = Action | Resign | Abort | Rejoin
# Those that make a step (``GameOwner.play``).
StepCommand = Action | Resign | Abort
# What ``GameOwner.handle`` takes.
OwnerCommand = PlayerCommand | Sync | Heard | Reload
# What a socket's frame may be (``from_frame``).
SocketCommand = PlayerCommand | Sync | Heard
# What the channel layer may carry to a hall (``from_message``).
Command = OwnerCommand | Attach | Detach | Wake

_BY_KIND: dict[str, type[Command]] = {
    kind.kind: kind
    for kind in (
        Action,
        Resign,
        Abort,
        Rejoin,
        Sync,
        Heard,
        Reload,
        Attach,
        Detach,
        Wake,
    )  # fmt: skip
}


class Refused(ApplicationError):
    """A frame that is no command the socket may give: answered with an
    ``error`` naming ``id`` (the frame's, when it is a valid one)."""

    def __init__(self, message_id: str | None, message: str, code: str):
        super().__init__(message, code=code)
        self.id = message_id


def from_frame(message: dict[str, Any], seat: int | None) -> SocketCommand:
    """The command a socket's frame (``message``, a JSON object with a text
    ``type``) gives its game's owner, the socket seeing the game from
    ``seat`` (None: a spectator's). Raises ``Refused`` for a frame of
    another type, one missing what its type needs, or a spectator's move."""
    message_id = an_id(message)
    match message["type"]:
        case "ping":
            return Heard()
        case "sync":
            since = message.get("version")
            if since is not None and type(since) is not int:
                raise Refused(None, "'version' must be an integer", "bad_message")
            return Sync(since)
        case "action":
            version = message.get("version")
            if message_id is None or type(version) is not int:
                raise Refused(
                    message_id,
                    "an action needs a string 'id' and a 'version'",
                    "bad_message",
                )
            seat = _a_players_seat(seat, message_id)
            return Action(seat, message_id, version, message.get("action"))
        case "resign":
            return Resign(_a_players_seat(seat, message_id), message_id)
        case "abort":
            return Abort(_a_players_seat(seat, message_id), message_id)
        case "rejoin":
            return Rejoin(_a_players_seat(seat, message_id), message_id)
        case kind:
            raise Refused(message_id, f"unknown type {kind!r}", "unknown_type")


def players_seat(seat: int | None) -> int:
    """The seat a player's command is played from (None: a spectator's):
    the one place a spectator's move is refused."""
    if seat is None:
        raise NotAllowed("spectators cannot play")
    return seat


def _a_players_seat(seat: int | None, message_id: str | None) -> int:
    try:
        return players_seat(seat)
    except NotAllowed as error:
        raise Refused(message_id, str(error), error.code) from None


def to_message(command: Command) -> dict[str, Any]:
    """The command as the channel layer carries it (msgpack: plain data)."""
    return {"kind": command.kind, **asdict(command)}


def from_message(message: dict[str, Any]) -> Command:
    """The command a channel-layer message carries (``to_message``'s)."""
    fields = dict(message)
    return _BY_KIND[fields.pop("kind")](**fields)


def valid_id(value: object) -> TypeGuard[str]:
    """Whether a client's message id is one (a short string)."""
    return isinstance(value, str) and 0 < len(value) <= MAX_ID_LENGTH


def an_id(message: dict[str, Any]) -> str | None:
    """The message's id if it is a valid one (an error names it), else None."""
    value = message.get("id")
    return value if valid_id(value) else None
