"""How many PostgreSQL connections each of the site's processes may hold,
and so how many connections the embedded server takes.

Every process connects through a pool of its own (psycopg_pool, through
Django's own support: ``DATABASES[...]["OPTIONS"]["pool"]``), which holds
at most ``PULKA_DB_POOL_SIZE`` connections whatever the burst of requests
or tasks: a request that finds them all busy waits at most
``PULKA_DB_POOL_TIMEOUT`` seconds for one and then fails as "database
unavailable" (503). A web process also has the live games' owners' pool of
async connections (``games.live.journal``). docs/architecture.md adds the
bounds up for a deployment.

This module imports nothing from Django: the settings take their defaults
from here, and so does ``config.embedded``, which runs before Django does.
"""

from __future__ import annotations

import os

# A process's Django connections at most (PULKA_DB_POOL_SIZE), and the
# seconds a caller waits for one (PULKA_DB_POOL_TIMEOUT): well under the
# 15 s after which a silent socket is closed, and under a page's patience.
POOL_SIZE = 8
POOL_TIMEOUT = 3.0
# The async connections of a web process's game owners, for their writes.
JOURNAL_SIZE = 4

# The processes of `make run` (scripts/run_platform.py): a web process, the
# Celery worker's parent and its two pool processes, beat.
WEB = POOL_SIZE + JOURNAL_SIZE
MAKE_RUN = WEB + 3 * POOL_SIZE + POOL_SIZE
# What one pytest-xdist worker may hold at once: its own connections (its
# tests' threads, unpooled: they race on row locks), the two servers of
# tests/live with two more of one test's own, a Celery worker and beat.
TEST_PROCESS = 16
TEST_WORKER = TEST_PROCESS + 4 * WEB + 2 * POOL_SIZE
# `make test` runs a pytest-xdist worker on every core, but never more than
# this many (PYTEST_WORKERS in the Makefile): past a few, the suite waits on
# its servers rather than on the cores, and each worker's share of the
# embedded server's connections (TEST_WORKER) would grow max_connections
# with the machine (5,184 on 64 cores), each slot taking PostgreSQL's
# shared memory whether used or not.
TEST_WORKERS_MAX = 8
# manage.py commands, psql, the server's own reserved superuser slots.
HEADROOM = 20


def test_workers(cores: int | None = None) -> int:
    """The pytest-xdist workers of `make test`: one a core, at most
    ``TEST_WORKERS_MAX``."""
    cores = cores or len(os.sched_getaffinity(0))
    return min(cores, TEST_WORKERS_MAX)


def embedded_max_connections(cores: int | None = None) -> int:
    """The embedded PostgreSQL's ``max_connections``: a `make run` beside a
    test run with all its workers (`make test`), and headroom: 224 on two
    cores, 704 at most (eight cores and more)."""
    return MAKE_RUN + test_workers(cores) * TEST_WORKER + HEADROOM


# A pool's connection that failed is made again in the background; psycopg
# _pool tries after 1 s, then 2, 4, 8 ... s (exponential backoff). After a
# failover the new primary is found only at the next try: with the backoff,
# at up to twice the outage's length (a 30 s promotion, 31 s more of
# refused moves). The pools try every RECONNECT_SECONDS instead, for as
# long as they try (psycopg_pool's reconnect_timeout, 5 minutes): a few
# connection attempts a second from each process while PostgreSQL is away.
RECONNECT_SECONDS = 0.5


def reconnect_steadily() -> None:
    """Every psycopg pool of this process (Django's, the journal's) tries a
    lost connection again every ``RECONNECT_SECONDS``, without backoff.
    Called when Django starts (config.apps); it sets psycopg_pool's own
    class-level constants, which the pools read at each attempt."""
    from psycopg_pool.base import AttemptWithBackoff

    AttemptWithBackoff.INITIAL_DELAY = RECONNECT_SECONDS
    AttemptWithBackoff.DELAY_BACKOFF = 1.0
