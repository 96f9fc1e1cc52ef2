"""The chat's socket messages (docs/protocol.md, "Chat"), each a type
(``common.messages``): what a page sends to say something, mute someone or
report a message; what its socket sends back; and what the channel layer
carries to a room's sockets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from common.messages import (
    ClientIn,
    ClientOut,
    Group,
    GroupMessage,
    Refused,
    an_id,
    by_type,
)


def _positive_int(value: object) -> bool:
    return type(value) is int and value > 0


# What a page sends.


@dataclass(frozen=True, slots=True)
class ChatIn(ClientIn):
    """Say something: free text, or a quick phrase's key, never both."""

    TYPE: ClassVar[str] = "chat"
    id: str
    text: str | None
    phrase: str | None

    @classmethod
    def read(cls, frame: Mapping[str, object]) -> Self:
        message_id, text, phrase = an_id(frame), frame.get("text"), frame.get("phrase")
        if (
            message_id is None
            or (text is not None and not isinstance(text, str))
            or (phrase is not None and not isinstance(phrase, str))
            or (text is None) == (phrase is None)
        ):
            raise Refused(
                message_id,
                "a chat message has a string 'id' and either a 'text' or a 'phrase'",
                "bad_message",
            )
        return cls(message_id, text, phrase)


@dataclass(frozen=True, slots=True)
class ChatMuteIn(ClientIn):
    """Stop (``muted`` false: start again) reading a player's messages."""

    TYPE: ClassVar[str] = "chat_mute"
    id: str | None
    user: int
    muted: bool

    @classmethod
    def read(cls, frame: Mapping[str, object]) -> Self:
        user, muted = frame.get("user"), frame.get("muted")
        if not (isinstance(user, int) and _positive_int(user)) or not isinstance(
            muted, bool
        ):
            raise Refused(
                an_id(frame),
                "'user' must be a player's id, 'muted' true or false",
                "bad_message",
            )
        return cls(an_id(frame), user, muted)


@dataclass(frozen=True, slots=True)
class ChatReportIn(ClientIn):
    """Report a message to the operators, with an optional reason."""

    TYPE: ClassVar[str] = "chat_report"
    id: str | None
    message: int
    reason: str

    @classmethod
    def read(cls, frame: Mapping[str, object]) -> Self:
        target, reason = frame.get("message"), frame.get("reason", "")
        if not (isinstance(target, int) and _positive_int(target)) or not isinstance(
            reason, str
        ):
            raise Refused(
                an_id(frame), "'message' must be a message's id", "bad_message"
            )
        return cls(an_id(frame), target, reason)


ChatClientIn = ChatIn | ChatMuteIn | ChatReportIn
# The chat's messages, which a socket with a chat takes beside its own.
CHAT_TAKES: dict[str, type[ChatClientIn]] = by_type(ChatIn, ChatMuteIn, ChatReportIn)


# What a socket sends.


@dataclass(frozen=True, slots=True)
class ChatSaid(ClientOut):
    """Someone said something in the room (``chat.serializers``)."""

    TYPE: ClassVar[str] = "chat"
    message: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ChatHistory(ClientOut):
    """Right after joining: the room's latest messages the reader may read,
    and whom they muted."""

    TYPE: ClassVar[str] = "chat_history"
    room: str
    messages: list[dict[str, Any]]
    muted: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class ChatMuted(ClientOut):
    TYPE: ClassVar[str] = "chat_muted"
    id: str | None
    user: int
    muted: bool


@dataclass(frozen=True, slots=True)
class ChatReported(ClientOut):
    TYPE: ClassVar[str] = "chat_reported"
    id: str | None
    message: int


# What the channel layer carries to a room's sockets.


@dataclass(frozen=True, slots=True)
class ChatPosted(GroupMessage):
    """A message said in the room, as the room's readers are shown it."""

    TYPE: ClassVar[str] = "chat.said"
    message: dict[str, Any]


# A chat room's group (``chat.selectors.Room.group``).
CHAT_ROOM = Group("chat room", (ChatPosted,))
