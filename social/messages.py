"""The personal socket's messages (docs/protocol.md, "The personal
socket"), each a type (``common.messages``): what /ws/me/ sends a player's
pages, and what the channel layer carries to it (``social.notify``).
A tournament's word to its players (``tournaments.messages.NextGame``)
rides here too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from common.messages import ClientOut, Group, GroupMessage


@dataclass(frozen=True, slots=True)
class Hello(ClientOut):
    """First on every connection: the invitations still open."""

    TYPE: ClassVar[str] = "hello"
    invitations: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Invitation(ClientOut):
    """A friend invited the player to a free seat (the API's invitation)."""

    TYPE: ClassVar[str] = "invitation"
    invitation: dict[str, Any]


@dataclass(frozen=True, slots=True)
class InvitationOver(ClientOut):
    """That invitation is no longer to be shown."""

    TYPE: ClassVar[str] = "invitation_over"
    invitation: int


@dataclass(frozen=True, slots=True)
class InvitationAnswered(ClientOut):
    """To the inviter: the friend's answer (``accepted`` or ``declined``)."""

    TYPE: ClassVar[str] = "invitation_answered"
    invitation: int
    table: int
    answer: str
    by: dict[str, Any]


@dataclass(frozen=True, slots=True)
class FriendRequest(ClientOut):
    """Someone (``sender``, on the wire ``from``) asked to be friends."""

    TYPE: ClassVar[str] = "friend_request"
    WIRE_NAMES: ClassVar[dict[str, str]] = {"sender": "from"}
    sender: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Friends(ClientOut):
    """The player's friends, requests or blocks changed: read them again."""

    TYPE: ClassVar[str] = "friends"


@dataclass(frozen=True, slots=True)
class MeMessage(GroupMessage):
    """A message for the player's personal sockets (encoded)."""

    TYPE: ClassVar[str] = "me.message"
    message: dict[str, Any]


# The player's personal sockets (``social.notify.me_group``).
ME = Group("me", (MeMessage,))
