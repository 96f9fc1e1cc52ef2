"""Every Celery task of the site retries, with a one-line warning, when
PostgreSQL or Redis cannot be reached for a while.

The worker outlives the servers it talks to: a restart of PostgreSQL or
Redis, or a moment of a full disk, fails whatever task was running then.
Such a failure is no bug of the task, so it is not logged as one (with its
traceback, as "raised unexpected"): the task is run again after 1, 2, 4, 8
and 16 seconds, each time with one warning line. Only an outage that outlasts
the retries (about half a minute) fails the task, with its traceback.

Retrying is safe because every task is idempotent: the beat's ticks and the
sweep read the state afresh and change only what is still to be changed
(``games.tasks``, ``matchmaking.tasks``, ``tournaments.tasks``), the refill
is keyed by user and day (``coins.tasks``), and a board's result is taken in
once (``tournaments.services.board_take_result``).

It is the Celery application's task class (``config.celery``), so every task
has it without naming it.
"""

from __future__ import annotations

import logging

import kombu.exceptions
import redis.exceptions
from celery import Task
from celery.exceptions import Ignore, Reject
from django.db.utils import InterfaceError, OperationalError

logger = logging.getLogger(__name__)

# What a task meets while a server is out of reach: Django's database errors
# for a lost or refused connection (and PostgreSQL's own transient ones, such
# as a full disk or a deadlock), redis-py's for the cache and the channel
# layer, kombu's for sending a task to the broker.
UNREACHABLE = (
    OperationalError,
    InterfaceError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    kombu.exceptions.OperationalError,
)


class RetryWhileUnreachable(Task):
    autoretry_for = UNREACHABLE
    max_retries = 5
    retry_backoff = 1
    retry_backoff_max = 16
    retry_jitter = False

    def retry(self, *args, exc=None, countdown=None, **kwargs):
        """Called by Celery's automatic retry (``autoretry_for``) with the
        error and the backoff's delay."""
        if self.request.retries < self.max_retries:
            logger.warning(
                "%s[%s]: %s; trying again in %s s (retry %s of %s)",
                self.name,
                self.request.id,
                one_line(exc),
                countdown,
                self.request.retries + 1,
                self.max_retries,
            )
        try:
            return super().retry(*args, exc=exc, countdown=countdown, **kwargs)
        except Reject as rejected:
            # The retry itself could not be sent: the broker is down too.
            # The task is dropped with a warning; the beat sends its ticks
            # again, and the tournaments' tick takes in any result whose
            # message was lost.
            logger.warning(
                "%s[%s]: the retry could not be queued (%s); dropped",
                self.name,
                self.request.id,
                one_line(rejected.reason),
            )
            raise Ignore() from None


def one_line(exc) -> str:
    """The exception's class and the first line of its message."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"
