"""Every socket message is a type: one shape, one encoder, one parse.

The live sockets speak JSON objects with a ``type`` (docs/protocol.md). Each
message either way is a frozen dataclass here or in its app's
``messages`` module, in the shape of lila-ws's ``ClientIn`` and
``ClientOut``:

* ``ClientOut``: what a socket sends its page, turned into the frame's
  object by ``encode`` and nothing else;
* ``ClientIn``: what a page may send, read from a frame by ``parse``, which
  refuses (``Refused``) a type the socket does not take, a field the type
  does not declare, or a field of the wrong shape, with nothing changed;
* ``GroupMessage``: what the channel layer carries to a group of sockets
  (a user's, a table's, the lobby's), turned into the layer's message by
  ``encode`` too and read back by its handler with ``decode``; ``Group``
  names a group and every type it carries, so that each socket joining it
  can be held to handle each one (tests/test_socket_messages.py).

A field is written under its own name, or under ``WIRE_NAMES``'s (a name
Python keeps, ``from``); a field in ``OMITTED_WHEN_NONE`` is left out while
None; a field in ``FLAT`` is a mapping whose keys are written beside the
others (a snapshot's many fields).

There is one error message for every socket, ``Error``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeVar

from common.errors import ApplicationError

# Longest id a client may give a message (docs/protocol.md).
MAX_ID_LENGTH = 64


class Message:
    """A message with a ``TYPE``, one of the dataclasses below or in an
    app's ``messages`` module."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]
    TYPE: ClassVar[str]
    WIRE_NAMES: ClassVar[Mapping[str, str]] = {}
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset()
    FLAT: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def wire_fields(cls) -> frozenset[str]:
        """The names the message's fields take on the wire."""
        return frozenset(
            cls.WIRE_NAMES.get(field.name, field.name)
            for field in dataclasses.fields(cls)
        )


class ClientOut(Message):
    """A message a socket sends its page."""

    __slots__ = ()


class ClientIn(Message):
    """A message a page sends its socket, read by ``parse``."""

    __slots__ = ()

    @classmethod
    def read(cls, frame: Mapping[str, object]) -> Self:
        """The message a frame of this type makes; raises ``Refused`` for a
        field of the wrong shape. By default every field as it came (None
        when missing): a type whose fields have a shape reads them itself."""
        return cls(**{name: frame.get(name) for name in cls.wire_fields()})


class GroupMessage(Message):
    """A message the channel layer carries to a group of sockets (its
    ``TYPE`` is dotted: Channels calls the handler of that name with the
    dots as underscores)."""

    __slots__ = ()


@dataclass(frozen=True)
class Group:
    """A kind of channel-layer group and every message type it carries."""

    name: str
    carries: tuple[type[GroupMessage], ...]


def encode(message: Message) -> dict[str, Any]:
    """The message as the frame's (or the channel layer's) object."""
    wire: dict[str, Any] = {"type": message.TYPE}
    for field in dataclasses.fields(message):
        value = getattr(message, field.name)
        if field.name in message.FLAT:
            wire.update(value)
        elif value is not None or field.name not in message.OMITTED_WHEN_NONE:
            wire[message.WIRE_NAMES.get(field.name, field.name)] = value
    return wire


G = TypeVar("G", bound="GroupMessage")


def decode(kind: type[G], event: Mapping[str, Any]) -> G:
    """The group message a channel-layer message carries (``encode``'s),
    as the handler of its type reads it. A field its type does not declare,
    or one missing, raises TypeError: a sender and its receivers disagree,
    which is a bug to hear of, not a message to guess at."""
    names = {
        kind.WIRE_NAMES.get(field.name, field.name): field.name
        for field in dataclasses.fields(kind)
    }
    undeclared = event.keys() - names.keys() - {"type"}
    if undeclared or event.get("type") != kind.TYPE:
        raise TypeError(f"not a {kind.TYPE!r} message: {sorted(event)}")
    return kind(**{names[key]: value for key, value in event.items() if key != "type"})


def handler_name(kind: type[GroupMessage]) -> str:
    """The name of a consumer's handler for a group message (Channels'
    ``get_handler_name``)."""
    return kind.TYPE.replace(".", "_")


In = TypeVar("In", bound="ClientIn")

# The one error message.


@dataclass(frozen=True, slots=True)
class Error(ClientOut):
    """A message refused, nothing changed: its ``id`` if the client gave a
    valid one. A chat refusal adds when a mute ends (``until``) or whom the
    writer blocks (``names``)."""

    TYPE: ClassVar[str] = "error"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"until", "names"})
    id: str | None
    code: str
    message: str
    until: str | None = None
    names: list[str] | None = None


@dataclass(frozen=True, slots=True)
class Pong(ClientOut):
    """The answer to a ping (or, on a socket that reads nothing, to every
    frame)."""

    TYPE: ClassVar[str] = "pong"


@dataclass(frozen=True, slots=True)
class Ping(ClientIn):
    """The page is there (Heartbeats)."""

    TYPE: ClassVar[str] = "ping"


RATE_LIMITED = Error(
    None,
    "rate_limited",
    "too many messages: this one and any more until the rate falls are dropped",
)


class Refused(ApplicationError):
    """A frame that is no message the socket takes: answered with the one
    ``Error``, naming ``id`` (the frame's, when it is a valid one)."""

    def __init__(self, message_id: str | None, message: str, code: str) -> None:
        super().__init__(message, code=code)
        self.id = message_id

    def error(self) -> Error:
        return Error(self.id, self.code, str(self))


def parse(
    frame: Mapping[str, object],
    takes: Mapping[str, type[In]],
    *,
    unknown_named: bool = True,
) -> In:
    """The message a frame (a JSON object with a text ``type``) carries, of
    one of the types the socket ``takes`` (by their ``TYPE``). Raises
    ``Refused``: ``unknown_type`` for another type (naming the frame's id
    unless ``unknown_named`` is false: the sockets whose pages send no ids
    but for the chat's), ``bad_message`` for a field its type does not
    declare or one of the wrong shape."""
    kind = frame["type"]
    assert isinstance(kind, str)
    message_id = an_id(frame)
    taken = takes.get(kind)
    if taken is None:
        named = message_id if unknown_named else None
        raise Refused(named, f"unknown type {kind[:64]!r}", "unknown_type")
    undeclared = sorted(frame.keys() - taken.wire_fields() - {"type", "id"})
    if undeclared:
        raise Refused(
            message_id,
            f"{kind!r} has no field {undeclared[0][:64]!r}",
            "bad_message",
        )
    return taken.read(frame)


def by_type(*kinds: type[In]) -> dict[str, type[In]]:
    """The types a socket takes, by their ``TYPE`` (for ``parse``)."""
    return {kind.TYPE: kind for kind in kinds}


def valid_id(value: object) -> bool:
    """Whether a client's message id is one (a short string)."""
    return isinstance(value, str) and 0 < len(value) <= MAX_ID_LENGTH


def an_id(frame: Mapping[str, object]) -> str | None:
    """The frame's id if it is a valid one (an error names it), else None."""
    value = frame.get("id")
    return value if isinstance(value, str) and valid_id(value) else None
