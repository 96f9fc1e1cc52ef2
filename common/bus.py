"""Publishing what happened, for whoever subscribed to it.

A ``Topic`` carries one kind of event, a typed value. The app where the
thing happens publishes it once; the apps that act on it subscribe from
their ``AppConfig.ready``, so the publisher names none of them (an app
below may be heard by apps above it without importing them).

A subscriber says when it runs:

* ``IN_TRANSACTION``: at once, inside the publisher's transaction, which
  commits or rolls back with what it writes (money, ratings);
* ``AFTER_COMMIT``: once that transaction has committed
  (``transaction.on_commit``), never for a change rolled back: what reaches
  outside the database (sockets, the worker's queue).

Subscribers of each kind run in the order they subscribed. The ones after
the commit run together in one ``on_commit`` callback, so that one raising
stops those after it and reaches the committer, as a Django signal's
receivers do.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Generic, TypeVar

from django.db import transaction

Event = TypeVar("Event")
Subscriber = Callable[[Event], None]


class When(enum.Enum):
    IN_TRANSACTION = "in transaction"
    AFTER_COMMIT = "after commit"


IN_TRANSACTION = When.IN_TRANSACTION
AFTER_COMMIT = When.AFTER_COMMIT


class Topic(Generic[Event]):
    """The subscribers to one kind of event."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._subscribers: dict[When, list[Subscriber[Event]]] = {
            when: [] for when in When
        }

    def __repr__(self) -> str:
        return f"Topic({self.name!r})"

    def subscribe(self, subscriber: Subscriber[Event], *, when: When) -> None:
        """Run ``subscriber(event)`` for every event published, ``when``
        says at which moment. Subscribing the same function again changes
        nothing (an app made ready twice in tests)."""
        if subscriber not in self._subscribers[when]:
            self._subscribers[when].append(subscriber)

    def unsubscribe(self, subscriber: Subscriber[Event]) -> None:
        for subscribers in self._subscribers.values():
            if subscriber in subscribers:
                subscribers.remove(subscriber)

    def subscribers(self, when: When) -> tuple[Subscriber[Event], ...]:
        return tuple(self._subscribers[when])

    def publish(self, event: Event) -> None:
        """Hand ``event`` to the subscribers: the in-transaction ones now,
        the others once the caller's transaction commits (at once outside
        of one, as ``on_commit`` does)."""
        for subscriber in self.subscribers(IN_TRANSACTION):
            subscriber(event)
        after = self.subscribers(AFTER_COMMIT)
        if after:
            transaction.on_commit(lambda: _deliver(after, event))


def _deliver(subscribers: tuple[Subscriber[Event], ...], event: Event) -> None:
    for subscriber in subscribers:
        subscriber(event)
