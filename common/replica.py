"""Reads on the streaming replica where a moment's staleness is harmless.

With DATABASE_REPLICA_URL set, the settings add a database ``replica``
and this router. A view opts in with ``replica_reads``: the reads it makes
(while it runs) go to the replica, which may be a fraction of a second
behind the primary. The views that do are the ones nobody reads their own
writes from: the leaderboards, a player's public page, the public API's
lists of ratings and finished games, a finished game's replay and record
(written once, at its end). Everything else reads the primary: the table
a player just sat at, the lobby, the wallet, anything in a transaction,
anything after a write, every socket and task.

No replica configured (the default, and tests): ``replica_reads`` changes
nothing, since the router is not installed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.db import connections, transaction
from django.http import Http404

REPLICA = "replica"
DEFAULT = "default"
# Read on the primary whatever the view: a session or a lockout is read
# right after it is written.
PRIMARY_ONLY = frozenset({"sessions", "axes"})

_on_replica: ContextVar[bool] = ContextVar("pulka_replica_reads", default=False)

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def reading_replica() -> Iterator[None]:
    """The reads of the block go to the replica (when there is one)."""
    token = _on_replica.set(True)
    try:
        yield
    finally:
        _on_replica.reset(token)


def replica_reads(view: F) -> F:
    """A view whose reads may go to the replica (a function view, or a
    class-based view's ``get`` through ``method_decorator``).

    The visitor is read first, on the primary: a session saved a moment ago
    (a sign-in) may not be on the replica yet. A view that answers 404 on
    the replica is asked again on the primary: what it looked for may be
    only a moment old (the replay of a game that just ended)."""

    @functools.wraps(view)
    def wrapped(request: Any, *args: Any, **kwargs: Any) -> Any:
        user = getattr(request, "user", None)
        if user is not None:
            user.is_authenticated  # noqa: B018 (loads the lazy user here)
        try:
            with reading_replica():
                return view(request, *args, **kwargs)
        except Http404:
            if REPLICA not in connections.settings:
                raise
        return view(request, *args, **kwargs)

    return wrapped  # type: ignore[return-value]


class ReplicaRouter:
    """Reads inside ``reading_replica`` go to ``replica``, unless the
    primary's connection is in a transaction (what it wrote is not on the
    replica yet); everything else, writes and migrations included, goes to
    ``default``."""

    def db_for_read(self, model: type, **hints: Any) -> str:
        if not _on_replica.get():
            return DEFAULT
        if model._meta.app_label in PRIMARY_ONLY:  # type: ignore[attr-defined]
            return DEFAULT
        if REPLICA not in connections.settings:
            return DEFAULT
        if transaction.get_connection(DEFAULT).in_atomic_block:
            return DEFAULT
        return REPLICA

    def db_for_write(self, model: type, **hints: Any) -> str:
        return DEFAULT

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # the same data, one behind the other

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT
