"""The site through PgBouncer in transaction mode (Debian's 1.18, which
has no protocol-level prepared statements): DATABASE_URL names PgBouncer,
PULKA_DB_TRANSACTION_POOLER=1, and DATABASE_DIRECT_URL names the server
itself for beat's advisory lock, a session's own that a transaction
pooler cannot keep.

A game is played over the real WebSocket (the journal's statements, one
multi-statement simple query a move, and every page's reads through
Django, which prepares nothing), pages and the API answer, and beat leads
on its direct session; PgBouncer's own count shows the traffic went
through it.
"""

from __future__ import annotations

import asyncio
import shutil
import urllib.request

import pytest

from benchmarks.replication import PGBOUNCER, PgBouncer
from tests.live.conftest import start_server
from tests.live.support import wait_until
from tests.processes import wait_for_http

from .conftest import DATABASE
from .test_failover import Player, beat_leads, event_rows

pytestmark = pytest.mark.ha


def status(url: str, session: str | None = None) -> int:
    headers = {"Cookie": f"sessionid={session}"} if session else {}
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.timeout(400)
@pytest.mark.skipif(
    not shutil.which(PGBOUNCER), reason="apt-get install pgbouncer (make test-ha)"
)
def test_the_site_plays_through_pgbouncer_in_transaction_mode(drill):
    ha = drill(synchronous=False)
    direct = ha.cluster.server_url(ha.cluster.primary, DATABASE)
    with PgBouncer(ha.cluster.primary, ha.cluster.root) as bouncer:
        ha.env.update(
            {
                "DATABASE_URL": bouncer.url(DATABASE),
                "DATABASE_DIRECT_URL": direct,
                "PULKA_DB_TRANSACTION_POOLER": "1",
            }
        )
        seeded = ha.seed()
        game_id, sessions = seeded["game"], seeded["sessions"]
        process, base = start_server("web-bouncer", ha.env, ha.log_dir)
        ha.processes.append(process)
        wait_for_http(process, f"{base}/health/")
        ha.beat()
        before = bouncer.transactions(DATABASE)

        async def play():
            async with (
                Player(base, game_id, sessions[0]) as a,
                Player(base, game_id, sessions[1]) as b,
            ):
                await asyncio.gather(a.play_to(30, 120), b.play_to(30, 120))
                return {**a.acks, **b.acks}, a.refused + b.refused

        acks, refused = asyncio.run(play())
        assert refused == 0
        rows = event_rows(direct, game_id)
        assert [version for version, _, _ in rows] == list(range(1, len(rows) + 1))
        assert len(rows) >= 30 and len(acks) >= 20

        for path in ("/", "/ratings/", "/api/v1/games/", "/api/v1/players/"):
            assert status(f"{base}{path}") == 200, path
        assert status(f"{base}/lobby/", sessions[0]) == 200
        assert status(f"{base}/api/v1/me/", sessions[0]) == 200
        assert status(f"{base}/games/{game_id}/replay/") == 404  # still playing

        # Beat's lock is held on the server itself, not through PgBouncer.
        wait_until(lambda: beat_leads(direct), 60, "beat to lead")
        # Each move a transaction at least, and the pages' reads.
        assert bouncer.transactions(DATABASE) - before >= len(rows)
