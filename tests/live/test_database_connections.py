"""A web process holds no more PostgreSQL connections than its pools allow,
whatever the burst of requests, nor the site's processes together (web, a
Celery worker of pool processes and beat) whatever the burst of requests
and tasks: real processes connecting as a role of this test's own
(``tests.database_role``), their connections counted in
``pg_stat_activity`` while many requests and tasks reach them at once."""

from __future__ import annotations

import sys
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from config.tasks import ping
from matchmaking.tasks import tick
from tests.database_role import DatabaseRole

from .conftest import start

# Requests in flight at once, and in all: far more than a pool holds.
AT_ONCE = 48
REQUESTS = 4 * AT_ONCE
# Tasks queued at once for the worker, each reading the database.
TASKS = 64
# The worker's pool processes, as `make run` starts it.
POOL_PROCESSES = 2
# What these tests count is connections, not how long a page waits for
# one: on a test machine busy with other workers, a page behind 47 others
# may wait past the site's PULKA_DB_POOL_TIMEOUT and be answered 503, as
# designed. Their servers let a page wait its turn instead.
PATIENT = {"PULKA_DB_POOL_TIMEOUT": "60"}


@pytest.fixture
def role(transactional_db):
    with DatabaseRole() as role:
        yield role


def burst(url: str, person, role: DatabaseRole, during=None) -> tuple[list, list]:
    """The statuses of ``REQUESTS`` pages asked ``AT_ONCE`` at a time
    (``during()`` called as they start), and the role's connections counted
    all along."""

    def page(_) -> int:
        # The lobby reads the session, the user and the tables.
        response = requests.get(
            f"{url}/lobby/", cookies={"sessionid": person.session_key}, timeout=60
        )
        return response.status_code

    counts = []
    done = threading.Event()

    def count_connections() -> None:
        try:
            while not done.is_set():
                counts.append(role.connections())
        finally:
            connection.close()

    counter = threading.Thread(target=count_connections)
    counter.start()
    try:
        with ThreadPoolExecutor(AT_ONCE) as pool:
            pages = pool.map(page, range(REQUESTS))
            if during is not None:
                during()
            statuses = list(pages)
    finally:
        done.set()
        counter.join()
    return statuses, counts


def test_a_burst_of_requests_holds_no_more_connections_than_the_pools(
    own_servers, people, role
):
    _, url = own_servers("burst", env={"DATABASE_URL": role.url, **PATIENT})
    (person,) = people(1)
    # The web process's pools: Django's connections and the game owners'.
    bound = settings.PULKA_DB_POOL_SIZE + settings.PULKA_JOURNAL_CONNECTIONS

    statuses, counts = burst(url, person, role)
    after = role.connections()
    print(
        f"connections during the burst: at most {max(counts)} "
        f"({len(counts)} counts); after it: {after}; bound {bound}"
    )

    assert statuses == [200] * REQUESTS
    assert len(counts) > 1
    assert max(counts) <= bound
    assert after <= bound


@pytest.mark.timeout(180)
def test_web_worker_and_beat_together_hold_no_more_than_their_pools(
    own_servers, live_env, log_dir, people, role
):
    env = {**live_env, "DATABASE_URL": role.url, **PATIENT}
    _, url = own_servers("burst-web", env={"DATABASE_URL": role.url, **PATIENT})
    (person,) = people(1)
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    celery_app.control.purge()
    worker = start(
        "burst-worker",
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "prefork",
            "--concurrency",
            str(POOL_PROCESSES),
            "--loglevel",
            "INFO",
            "--queues",
            queue,
            "--hostname",
            f"pulka-burst-{uuid.uuid4().hex[:8]}@%h",
            "--without-mingle",
            "--without-gossip",
            "--without-heartbeat",
        ],  # fmt: skip
        env,
        log_dir,
    )
    beat = None
    try:
        assert ping.apply_async().get(timeout=60) == "pong"
        beat = start(
            "burst-beat",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "beat",
                "--loglevel",
                "INFO",
                "--max-interval",
                "1",
                "--scheduler",
                "config.beat:OneBeatScheduler",
            ],  # fmt: skip
            env,
            log_dir,
        )
        # A web process's pools, the worker's parent and pool processes, beat.
        web = settings.PULKA_DB_POOL_SIZE + settings.PULKA_JOURNAL_CONNECTIONS
        bound = web + (1 + POOL_PROCESSES) * settings.PULKA_DB_POOL_SIZE
        bound += settings.PULKA_DB_POOL_SIZE
        ticked = []

        def tasks() -> None:
            # Sent while the pages are asked, and waited for: the counting
            # goes on until both are done.
            results = [tick.apply_async(ignore_result=False) for _ in range(TASKS)]
            ticked.extend(result.get(timeout=60) for result in results)

        statuses, counts = burst(url, person, role, during=tasks)
        print(
            f"connections during the burst of requests and tasks: at most "
            f"{max(counts)} ({len(counts)} counts); bound {bound}"
        )
        assert statuses == [200] * REQUESTS
        assert ticked == [0] * TASKS
        assert len(counts) > 1
        assert max(counts) <= bound
    finally:
        if beat is not None:
            beat.stop()
        worker.stop()
        celery_app.control.purge()
