"""A database that cannot be reached, as Django reports it.

PostgreSQL refusing connections or down, or every connection of the
process's pool busy past its wait (``config.connections``): Django wraps
psycopg's errors, the pool's timeout among them, in its own two; the game
owners' pool of async connections (``games.live.journal``) raises
psycopg's own. Such an
error is an outage to wait out, not a fault of the code: a page answers 503
(``config.unavailable``), a socket that cannot open closes with 4503
(``games.consumers.sockets``), and each is logged as a one-line warning.
"""

from __future__ import annotations

import psycopg
from django.db import InterfaceError, OperationalError

DATABASE_UNAVAILABLE = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)


def first_line(error: BaseException) -> str:
    """The error's message, for a log line (psycopg's run on for lines)."""
    return (str(error).splitlines() or [type(error).__name__])[0]
