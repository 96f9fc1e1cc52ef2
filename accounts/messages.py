"""What the channel layer carries to a user's and a session's groups
(``accounts.sockets``): every socket of a signed-in user joins both, and
handles each of ``USER``'s messages (``common.messages``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from common.messages import Group, GroupMessage


@dataclass(frozen=True, slots=True)
class SessionEnded(GroupMessage):
    """The socket closes with this code and reason (a logout, a password
    change, a ban, one socket too many)."""

    TYPE: ClassVar[str] = "session.ended"
    code: int
    reason: str


@dataclass(frozen=True, slots=True)
class ChatHidden(GroupMessage):
    """The user muted or unmuted someone: a socket with a chat reads again
    whom they hide."""

    TYPE: ClassVar[str] = "chat.hidden"


# The user's group (``user-<id>``) and the session's (``session-<key>``).
USER = Group("user", (SessionEnded, ChatHidden))
