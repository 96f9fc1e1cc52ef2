"""The tournament formats as plug-ins: one module per format, each holding
one ``TournamentFormat`` (``base``), and the one lookup from a tournament's
``format`` value to it. docs/tournaments.md says what adding a format
touches."""

from __future__ import annotations

from . import arena, knockout, multitable, swiss
from .base import RoundPlan, Row, TournamentFormat

__all__ = [
    "FORMATS",
    "Row",
    "RoundPlan",
    "TournamentFormat",
    "continuous_formats",
    "format_of",
    "formats_for",
]

# By value, in the order of ``tournaments.choices.Format``.
FORMATS: dict[str, TournamentFormat] = {
    plugin.value: plugin
    for plugin in (swiss.FORMAT, knockout.FORMAT, multitable.FORMAT, arena.FORMAT)
}


def format_of(value: str) -> TournamentFormat:
    """The format a tournament (or a schedule) plays: ``format_of(t.format)``."""
    return FORMATS[value]


def formats_for(players_per_table: int) -> frozenset[str]:
    """The formats played with so many players at a table."""
    return frozenset(
        value
        for value, plugin in FORMATS.items()
        if plugin.players_per_table == players_per_table
    )


def continuous_formats() -> list[str]:
    """The formats played for a fixed time, each player paired again as
    soon as they are free."""
    return [value for value, plugin in FORMATS.items() if plugin.continuous]
