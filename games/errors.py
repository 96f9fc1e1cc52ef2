"""Refusals of the live-play services (``config.errors`` is their base)."""

from __future__ import annotations

from config.errors import ApplicationError


class StaleVersion(ApplicationError):
    code = "stale_version"


class NotPlaying(ApplicationError):
    code = "not_playing"
