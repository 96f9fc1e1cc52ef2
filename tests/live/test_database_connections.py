"""A web process holds no more PostgreSQL connections than its pools allow,
whatever the burst of requests: a real uvicorn server connecting as a role
of this test's own (``tests.database_role``), its connections counted in
``pg_stat_activity`` while many requests reach it at once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from django.conf import settings
from django.db import connection

from tests.database_role import DatabaseRole

# Requests in flight at once, and in all: far more than a pool holds.
AT_ONCE = 48
REQUESTS = 4 * AT_ONCE


@pytest.fixture
def role(transactional_db):
    with DatabaseRole() as role:
        yield role


def test_a_burst_of_requests_holds_no_more_connections_than_the_pools(
    own_servers, people, role
):
    _, url = own_servers("burst", env={"DATABASE_URL": role.url})
    (person,) = people(1)
    # The web process's pools: Django's connections and the game owners'.
    bound = settings.PULKA_DB_POOL_SIZE + settings.PULKA_JOURNAL_CONNECTIONS

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
            statuses = list(pool.map(page, range(REQUESTS)))
    finally:
        done.set()
        counter.join()
    after = role.connections()
    print(
        f"connections during the burst: at most {max(counts)} "
        f"({len(counts)} counts); after it: {after}; bound {bound}"
    )

    assert statuses == [200] * REQUESTS
    assert len(counts) > 1
    assert max(counts) <= bound
    assert after <= bound
