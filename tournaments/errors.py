"""Refusals of the tournament services, each with a stable code for clients.
Nothing has changed when one is raised."""

from __future__ import annotations


class TournamentError(Exception):
    code = "refused"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code:
            self.code = code


class TournamentNotFound(TournamentError):
    code = "not_found"
