"""What rides on the games' sockets beside the game, from an app above the
games (the table's and the lobby's chat, ``chat.sockets``), the games
importing nothing of it.

An app adds a mixin to a kind of socket (``ride``, from its
``AppConfig.ready``); ``served`` builds the class the site routes
(``games.routing``): the mixins over the games' consumer, with the groups
they join (``RIDER_GROUPS``) and the messages they take (``RIDER_TAKES``)
added to the consumer's, so that the one parse reads them and the one test
of every socket's groups (tests/test_socket_messages.py) sees them. A mixin
handles its messages in ``on_message`` and passes on the others
(``super().on_message``), and chains ``joined`` and ``leaving`` the same
way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol, TypeVar

from common.messages import ClientIn, Group


class Rider(Protocol):
    """A mixin that rides on a kind of the games' sockets."""

    RIDER_GROUPS: ClassVar[tuple[Group, ...]]
    RIDER_TAKES: ClassVar[Mapping[str, type[ClientIn]]]


class Ridden(Protocol):
    """A games' socket something may ride on."""

    GROUPS: ClassVar[tuple[Group, ...]]
    TAKES: ClassVar[dict[str, type[ClientIn]]]


# The kinds of socket something may ride on.
TABLE, WAITING, LOBBY = "table", "waiting", "lobby"
_RIDERS: dict[str, list[type[Rider]]] = {TABLE: [], WAITING: [], LOBBY: []}

Consumer = TypeVar("Consumer", bound=type[Ridden])


def ride(kind: str, mixin: type[Rider]) -> None:
    """Serve ``kind``'s sockets with ``mixin`` on them (once)."""
    if mixin not in _RIDERS[kind]:
        _RIDERS[kind].append(mixin)


def served(name: str, kind: str, consumer: Consumer) -> Consumer:
    """The class the site serves ``kind``'s sockets with: ``consumer``
    under every mixin that rides on it."""
    mixins = tuple(_RIDERS[kind])
    namespace: dict[str, Any] = {
        "__module__": consumer.__module__,
        "__qualname__": name,
        "GROUPS": (
            *consumer.GROUPS,
            *(group for mixin in mixins for group in mixin.RIDER_GROUPS),
        ),
        "TAKES": {
            **consumer.TAKES,
            **{k: v for mixin in mixins for k, v in mixin.RIDER_TAKES.items()},
        },
    }
    return type(name, (*mixins, consumer), namespace)  # type: ignore[return-value]
