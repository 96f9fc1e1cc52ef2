"""Fixtures of the live tests, for the routing tests: a package of its own,
after ``tests/live`` and ``tests/outage``, whose servers are stopped by then
(package scope), so that the servers started here are the only ones that
could take a game (every server of a deployment knows the same nodes)."""

from tests.live.conftest import (  # noqa: F401
    live_env,
    log_dir,
    own_servers,
    people,
    short_timers,
)
