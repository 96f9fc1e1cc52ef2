"""Errors of the live-play services, each with a stable code for clients."""

from __future__ import annotations


class PlayError(Exception):
    """A request the services refuse; nothing was changed."""

    code = "refused"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code:
            self.code = code


class NotFound(PlayError):
    code = "not_found"


class NotAllowed(PlayError):
    code = "not_allowed"


class StaleVersion(PlayError):
    code = "stale_version"


class NotPlaying(PlayError):
    code = "not_playing"
