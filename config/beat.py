"""Celery beat that is safe to run twice: one copy sends the periodic
tasks, any other stands by and takes over when it goes.

The copy that holds a PostgreSQL advisory lock (``LOCK_KEY``, on a session
of its own) leads; the others try for the lock every ``STANDBY_SECONDS``
and send nothing meanwhile. PostgreSQL drops the lock with the session, so
a leader that dies (killed, its machine gone) frees it at once and a
standby leads within ``STANDBY_SECONDS``. On taking the lead a copy reads
the schedule again from the database, where the leader before it saved
each run just before sending its task (``OneBeatScheduler.reserve``), so
that a task that was just sent is not sent again. A leader killed between
the two leaves a run saved but not sent: that job waits one period more,
which no periodic job minds, where the other order sent it twice.

A leader that cannot reach PostgreSQL keeps leading: nobody else can take
the lock while the database is down, and the tasks it sends meanwhile
(the sweep among them) are tried again by the workers until the database
is back (config.task_retries). When it reaches the database again it takes
the lock back, or stands by if another copy took it first; so two copies
can both send only for the few seconds after a leader that alone lost its
connection got it back (docs/deployment.md).
"""

from __future__ import annotations

import logging
import time

import psycopg
from django.conf import settings
from django.db import connections
from django_celery_beat.schedulers import DatabaseScheduler

logger = logging.getLogger(__name__)

# The advisory lock's key: any number that no other lock of the site uses
# ("PULKA" + "BEAT" in ASCII, folded into a bigint).
LOCK_KEY = 0x50554C4B41_4245
# How often a standby tries for the lock, and a leader without its session
# tries to get it back, in seconds.
STANDBY_SECONDS = 1.0
CONNECT_TIMEOUT_SECONDS = 2


class OneBeatScheduler(DatabaseScheduler):
    """``DatabaseScheduler`` that ticks only while it leads (see the module)."""

    def __init__(self, *args, **kwargs):
        self._session: psycopg.Connection | None = None
        self._leading = False
        self._next_try = 0.0
        super().__init__(*args, **kwargs)

    def tick(self, *args, **kwargs):
        if not self.leads():
            return STANDBY_SECONDS
        return super().tick(*args, **kwargs)

    def reserve(self, entry):
        """The entry's next run, saved before its task is sent (see the
        module): celery sends first and saves after."""
        next_entry = super().reserve(entry)
        self.sync()
        return next_entry

    def leads(self) -> bool:
        """Whether this copy sends the periodic tasks now."""
        if self._session is not None:
            try:
                self._session.execute("SELECT 1")
                return True
            except psycopg.Error as error:
                logger.warning(
                    "beat: lost its database session and its lock (%s); "
                    "leads on until it can reach the database",
                    one_line(error),
                )
                self._drop_session()
        if time.monotonic() < self._next_try:
            return self._leading
        self._next_try = time.monotonic() + STANDBY_SECONDS
        try:
            session = psycopg.connect(**lock_session_params(), autocommit=True)
        except psycopg.Error:
            # The database out of reach: nobody can take the lock meanwhile.
            return self._leading
        try:
            row = session.execute(
                "SELECT pg_try_advisory_lock(%s)", [LOCK_KEY]
            ).fetchone()
        except psycopg.Error:
            session.close()
            return self._leading
        if not row or not row[0]:
            session.close()
            if self._leading:
                logger.warning("beat: another beat leads; this one stands by")
            self._leading = False
            return False
        self._session = session
        if not self._leading:
            logger.info("beat: leads (advisory lock %s)", LOCK_KEY)
            self._leading = True
            # The last leader's runs are in the database: read them again,
            # and build the heap once from that reading. A heap marked stale
            # while standing by (a change seen at start) would otherwise be
            # built a second time, from the entries as read before the
            # first sends, and send those tasks again at once.
            self._initial_read = True
            self._heap = None
            self._heap_invalidated = False
        return True

    def _drop_session(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            try:
                session.close()
            except psycopg.Error:
                pass

    def close(self) -> None:
        self._drop_session()
        super().close()


def lock_session_params() -> dict:
    """The database's connection parameters, as Django has them, for a
    session of the lock's own (outside any pool: its life is the lock's).

    The lock is the session's: it cannot go through PgBouncer in
    transaction mode, which lends a server connection for one transaction
    at a time. Behind such a pooler DATABASE_DIRECT_URL names the database
    itself (``PULKA_DIRECT_DATABASE``), and the session connects there. A
    multi-host URL finds the primary after a failover like every other
    connection: the lock died with the old primary's sessions, and the
    first beat to reach the new one leads."""
    direct = settings.PULKA_DIRECT_DATABASE
    if direct is not None:
        connection = connections["default"].__class__(
            {**connections["default"].settings_dict, **direct}, alias="direct"
        )
        params = connection.get_connection_params()
    else:
        params = connections["default"].get_connection_params()
    params.pop("pool", None)
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
    return params


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
