"""Refusals of the quick-play services; each has a stable ``code``."""

from __future__ import annotations

from common.errors import NotAllowed


class AlreadyWaiting(NotAllowed):
    code = "already_waiting"


class NotWaiting(NotAllowed):
    code = "not_waiting"
