"""Every socket message is a declared type (``common.messages``), and the
types hold together:

* each is a frozen, slotted dataclass, one type to a name either way;
* every kind of socket the site routes handles every message of every
  group it joins: a message sent to a user's group that one kind of socket
  had no handler for once closed three kinds of socket (the chat's mute);
* docs/protocol.md lists every type a client sends or is sent, and
  nothing else;
* each group message is read back as it was sent, and refused with an
  undeclared field;
* the one parse refuses an unknown type, an undeclared field and a wrong
  shape with the one error message.
"""

from __future__ import annotations

import dataclasses
import importlib

import pytest
from django.urls import URLPattern

from common.messages import (
    ClientIn,
    ClientOut,
    Error,
    GroupMessage,
    Message,
    Ping,
    Refused,
    by_type,
    decode,
    encode,
    handler_name,
    parse,
)
from tests.protocol_document import messages as documented

# Every app's messages module (``<app>.messages``).
MODULES = [
    "common.messages",
    "accounts.messages",
    "games.messages",
    "chat.messages",
    "social.messages",
    "matchmaking.messages",
    "tournaments.messages",
]


def declared(base: type[Message]) -> list[type[Message]]:
    """Every concrete message type of ``base`` in the messages modules."""
    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, base)
                and dataclasses.is_dataclass(value)
                and value.__module__ == name
            ):
                found.append(value)
    return found


def routed_consumers() -> list[type]:
    """The consumer class of every socket the site serves (config.asgi)."""
    asgi = importlib.import_module("config.asgi")
    consumers = []
    for value in vars(asgi).values():
        if isinstance(value, list):
            for pattern in value:
                if isinstance(pattern, URLPattern):
                    consumer = getattr(pattern.callback, "consumer_class", None)
                    if consumer is not None:
                        consumers.append(consumer)
    return consumers


def test_the_messages_modules_are_all_there():
    # A module named after the convention that is not in MODULES would be
    # left out of the checks below.
    for base in (ClientIn, ClientOut, GroupMessage):
        for kind in base.__subclasses__():
            assert kind.__module__ in MODULES or kind.__name__.startswith("_"), kind


@pytest.mark.parametrize("kind", declared(Message), ids=lambda kind: kind.__name__)
def test_every_message_is_a_frozen_slotted_dataclass(kind):
    assert kind.__dataclass_params__.frozen, kind
    assert "__slots__" in vars(kind), kind
    assert isinstance(kind.TYPE, str) and kind.TYPE


@pytest.mark.parametrize("base", [ClientIn, ClientOut, GroupMessage])
def test_one_type_to_a_name_each_way(base):
    names = [kind.TYPE for kind in declared(base)]
    assert len(names) == len(set(names)), sorted(names)


def test_group_messages_are_dotted_and_client_messages_not():
    # Channels calls a group message's handler by its dotted name; a page's
    # message never has a dot, so no frame can reach a group's handler.
    assert all("." in kind.TYPE for kind in declared(GroupMessage))
    assert not any("." in kind.TYPE for kind in declared(ClientIn))
    assert not any("." in kind.TYPE for kind in declared(ClientOut))


def test_every_kind_of_socket_handles_every_message_of_every_group_it_joins():
    consumers = routed_consumers()
    assert len(consumers) >= 6  # table, waiting table, lobby, quickplay, ...
    missing = [
        (consumer.__name__, group.name, kind.TYPE)
        for consumer in consumers
        for group in consumer.GROUPS
        for kind in group.carries
        if not callable(getattr(consumer, handler_name(kind), None))
    ]
    assert missing == []


def test_every_group_message_is_carried_by_a_group_some_socket_joins():
    joined = {
        kind for consumer in routed_consumers() for group in consumer.GROUPS
        for kind in group.carries
    }  # fmt: skip
    assert set(declared(GroupMessage)) <= joined


def test_every_signed_in_socket_joins_the_users_group():
    from accounts.messages import USER

    for consumer in routed_consumers():
        assert USER in consumer.GROUPS, consumer


def test_the_protocol_lists_every_type_a_client_sends_and_nothing_else():
    assert documented().sent == {kind.TYPE for kind in declared(ClientIn)}


def test_the_protocol_lists_every_type_a_client_is_sent_and_nothing_else():
    assert documented().received == {kind.TYPE for kind in declared(ClientOut)}


def test_the_document_reader_finds_types_in_both_kinds_of_table():
    text = (
        "| message | effect |\n| --- | --- |\n"
        '| `{"type": "a"}` or `{"type": "b", "x": 1}` | then `{"type": "c"}` |\n'
        "\n| message | when |\n| --- | --- |\n"
        '| `{"type": "d"}` | now |\n'
    )
    found = documented(text)
    assert (found.sent, found.received) == ({"a", "b"}, {"d"})


def test_the_one_error_message_encodes_as_every_socket_sends_it():
    assert encode(Error("a1", "bad_message", "no")) == {
        "type": "error",
        "id": "a1",
        "code": "bad_message",
        "message": "no",
    }
    muted = encode(Error("c1", "muted", "muted", until="2026-01-01T00:00:00+00:00"))
    assert muted["until"] == "2026-01-01T00:00:00+00:00" and "names" not in muted


@pytest.mark.parametrize(
    ("frame", "refusal"),
    [
        ({"type": "dance", "id": "d"}, ("d", "unknown_type")),
        ({"type": "ping", "extra": 1}, (None, "bad_message")),
        ({"type": "ping", "id": "p", "extra": 1}, ("p", "bad_message")),
    ],
)
def test_the_one_parse_refuses_an_unknown_type_and_an_undeclared_field(frame, refusal):
    with pytest.raises(Refused) as refused:
        parse(frame, by_type(Ping))
    assert (refused.value.id, refused.value.code) == refusal
    assert encode(refused.value.error())["type"] == "error"


def test_the_one_parse_reads_a_declared_message():
    assert parse({"type": "ping", "id": "p"}, by_type(Ping)) == Ping()


@pytest.mark.parametrize("kind", declared(GroupMessage), ids=lambda kind: kind.__name__)
def test_every_group_message_is_read_back_as_it_was_sent(kind):
    example = kind(**{field.name: 1 for field in dataclasses.fields(kind)})
    assert decode(kind, encode(example)) == example
    with pytest.raises(TypeError):
        decode(kind, {**encode(example), "undeclared": 1})
