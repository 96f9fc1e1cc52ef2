"""Fixtures of the high-availability drills: the live tests' servers, on
Redis servers of each test's own (``sentinels``)."""

from tests.live.conftest import (  # noqa: F401
    live_env,
    log_dir,
    own_servers,
    people,
    short_timers,
)
