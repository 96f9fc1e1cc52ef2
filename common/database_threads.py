"""Database work started from the event loop, on threads kept for it.

Channels' ``database_sync_to_async`` runs a call, by default, on the one
thread that every socket of the process shares (asgiref's thread-sensitive
mode outside a request). Each call first takes a connection from the
process's pool; while the pages' requests held every one, that thread
waited up to the pool's timeout for each call in turn, and the calls queued
behind it (a socket's user, its count, its chat post) waited for all of
those before them: up to half a minute under load, and a socket whose
handler waited that long read none of its pings and was closed as silent.

``off_the_loop`` runs the call on one of as many threads as the pool has
connections instead: a call waits for a connection at most the pool's
timeout, whatever is queued beside it, and more threads would only wait in
the pool. Every socket's and game owner's database call goes through it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from channels.db import DatabaseSyncToAsync
from django.conf import settings

P = ParamSpec("P")
R = TypeVar("R")


@functools.cache
def database_threads() -> ThreadPoolExecutor:
    """The threads, made at the first call (their number is a setting's:
    the pool's size, or one where the process keeps one connection)."""
    return ThreadPoolExecutor(
        max_workers=max(1, settings.PULKA_DB_POOL_SIZE),
        thread_name_prefix="database",
    )


def off_the_loop(
    function: Callable[P, R],
) -> Callable[P, Coroutine[Any, Any, R]]:
    """``function`` (which reads or writes through Django) as a coroutine
    run on one of the database threads. Its connection goes back to the
    pool when it returns (Channels' wrapper closes it, which with a pool
    means given back): the threads live on, and each would otherwise keep
    one taken from the pool for good."""
    return DatabaseSyncToAsync(
        function, thread_sensitive=False, executor=database_threads()
    )
