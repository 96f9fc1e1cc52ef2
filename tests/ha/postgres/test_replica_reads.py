"""Reads on the replica where staleness is harmless (common.replica), on a
real streaming replica: DATABASE_REPLICA_URL names it, and its replay is
paused, so that what was written since is on the primary only.

The public lists (the API's players) read the replica and do not show a
player made meanwhile; a lookup that finds nothing there (the player's
page, the API's player) asks the primary and finds it; the signed-in
player's own data (/api/v1/me/, whose session is a moment old) reads the
primary. Once replay resumes the list shows the new player too.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import psycopg
import pytest

from tests.live.conftest import start_server
from tests.live.support import wait_until
from tests.processes import wait_for_http

from .conftest import DATABASE

pytestmark = pytest.mark.ha


def get(url: str, session: str | None = None) -> tuple[int, str]:
    headers = {"Accept": "application/json"}
    if session:
        headers["Cookie"] = f"sessionid={session}"
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def listed(base: str, username: str) -> bool:
    status, body = get(f"{base}/api/v1/players/?search={username}")
    assert status == 200, body
    page = json.loads(body)
    rows = page["results"] if isinstance(page, dict) else page
    return any(row["username"] == username for row in rows)


@pytest.mark.timeout(400)
def test_public_lists_read_the_replica_and_own_data_the_primary(drill):
    ha = drill(synchronous=False)
    replica = ha.cluster.server_url(ha.cluster.replica, DATABASE)
    env = {"DATABASE_REPLICA_URL": replica}
    process, base = start_server("web-replica", {**ha.env, **env}, ha.log_dir)
    ha.processes.append(process)
    wait_for_http(process, f"{base}/health/")

    with psycopg.connect(replica, autocommit=True) as conn:
        conn.execute("SELECT pg_wal_replay_pause()")
        # Two players made now are on the primary only.
        seeded = ha.seed()
        session, name = seeded["sessions"][0], seeded["names"][0]

        # The list reads the replica: not there yet.
        assert not listed(base, name)
        # Found nowhere on the replica, asked again of the primary.
        status, body = get(f"{base}/api/v1/players/{name}/")
        assert status == 200, body
        assert json.loads(body)["username"] == name
        status, _ = get(f"{base}/players/{name}/")
        assert status == 200
        # The signed-in player reads their own session and self: primary.
        status, body = get(f"{base}/api/v1/me/", session)
        assert status == 200, body
        assert json.loads(body)["username"] == name
        # The leaderboards answer from the replica.
        assert get(f"{base}/ratings/")[0] == 200

        conn.execute("SELECT pg_wal_replay_resume()")
    wait_until(lambda: listed(base, name), 30, "the replica to catch up")
