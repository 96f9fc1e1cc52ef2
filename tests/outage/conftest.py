"""Fixtures of the live tests, for tests that need every server of theirs:
this package runs after ``tests/live``, whose shared servers are stopped by
then (package scope), so the servers started here are the only ones."""

from tests.live.conftest import (  # noqa: F401
    live_env,
    log_dir,
    own_servers,
    people,
    short_timers,
    worker,
)
