"""What a game's owner is told: each command a type, read once.

A command reaches an owner from one of its game's sockets (a frame the
player sent, ``from_frame``), from the site (``outside.tell_owner``) or from
another server process (a channel-layer message, ``from_message``). It is
read into one of the types here where it comes in, and turned back into a
plain dict (``to_message``) only to cross the channel layer, which carries
nothing else; everything between matches on the types.

Reading a socket's frame is also where a spectator's move is refused: the
player's commands carry the seat they are played from, so the owner never
needs to ask whose socket sent one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, assert_never

from common.errors import NotAllowed
from common.messages import Ping, Refused, by_type, parse
from games.messages import AbortIn, ActionIn, GameIn, RejoinIn, ResignIn, SyncIn

# What the table's socket passes to its game's owner (``from_frame``).
GAME_TAKES: dict[str, type[GameIn]] = by_type(
    Ping, SyncIn, ActionIn, ResignIn, AbortIn, RejoinIn
)


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
    protocol: int = 1  # the socket's (``messages.PROTOCOLS``)


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
# What a socket's frame may give (``from_frame``).
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


def from_frame(frame: Mapping[str, object], seat: int | None) -> SocketCommand:
    """The command a socket's frame (a JSON object with a text ``type``)
    gives its game's owner, the socket seeing the game from ``seat`` (None:
    a spectator's). Raises ``Refused`` for a frame of another type, one
    that is not of its type's shape, or a spectator's move."""
    return from_client(parse(frame, GAME_TAKES), seat)


def from_client(message: GameIn, seat: int | None) -> SocketCommand:
    """The command a message the table's page sent (``games.messages``)
    gives its game's owner; raises ``Refused`` for a spectator's move."""
    match message:
        case Ping():
            return Heard()
        case SyncIn(version=since):
            return Sync(since)
        case ActionIn(id=message_id, version=version, action=action):
            return Action(
                _a_players_seat(seat, message_id), message_id, version, action
            )
        case ResignIn(id=message_id):
            return Resign(_a_players_seat(seat, message_id), message_id)
        case AbortIn(id=message_id):
            return Abort(_a_players_seat(seat, message_id), message_id)
        case RejoinIn(id=message_id):
            return Rejoin(_a_players_seat(seat, message_id), message_id)
        case _:
            assert_never(message)


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


def from_message(message: Mapping[str, Any]) -> Command:
    """The command a channel-layer message carries (``to_message``'s)."""
    fields = dict(message)
    return _BY_KIND[fields.pop("kind")](**fields)
