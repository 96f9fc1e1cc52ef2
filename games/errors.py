"""Refusals of the live-play services (``common.errors`` is their base)."""

from __future__ import annotations

from common.errors import ApplicationError


class StaleVersion(ApplicationError):
    code = "stale_version"


class NotPlaying(ApplicationError):
    code = "not_playing"


class Unavailable(ApplicationError):
    """The database did not take the step (unreachable, or out of space):
    nothing was applied, and the same message may be sent again."""

    code = "unavailable"
    status = 503
