"""Checks of a tournament's settings, shared by the admin forms and the
services (so a tournament made in code is held to the same rules).

The models run these checks (``TournamentSettings.clean``), so nothing here
imports the models: a settings object is read by its fields alone."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tournaments.formats.plugins import FORMATS, formats_for


def _percents_error(split) -> str | None:
    if not isinstance(split, list) or not split:
        return "a list of percents, best place first"
    if any(isinstance(p, bool) or not isinstance(p, int | float) for p in split):
        return "percents are numbers"
    shares = [Fraction(str(p)) for p in split]
    if any(s < 0 for s in shares) or sum(shares) != 100:
        return "percents are not negative and add up to 100"
    if any(a < b for a, b in zip(shares, shares[1:], strict=False)):
        return "a better place never gets a smaller share"
    return None


def _points_error(points) -> str | None:
    if not isinstance(points, list) or len(points) != 4:
        return "four numbers: points for 1st, 2nd, 3rd and 4th place"
    if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in points):
        return "points are whole numbers, not negative"
    if any(a < b for a, b in zip(points, points[1:], strict=False)):
        return "a better place never gets fewer points"
    return None


def check_settings(settings: Any) -> dict[str, str]:
    """Field name -> what is wrong, for a tournament or a schedule."""
    errors: dict[str, str] = {}
    per_table = settings.players_per_table if settings.category else None
    if per_table == 2 and settings.format not in formats_for(2):
        errors["format"] = "Japanese Joker is played Swiss, knockout or arena"
    if per_table == 4 and settings.format not in formats_for(4):
        errors["format"] = "Joker is played at tables of four"
    if settings.min_players and settings.max_players:
        if settings.min_players > settings.max_players:
            errors["max_players"] = "at least the minimum"
    if (problem := _percents_error(settings.prize_split)) is not None:
        errors["prize_split"] = problem
    if (problem := _points_error(settings.points_for_places)) is not None:
        errors["points_for_places"] = problem
    plugin = FORMATS.get(settings.format)
    if plugin is not None:
        errors |= plugin.check_settings(settings)
    if not 5 <= (settings.turn_seconds or 0) <= 600:
        errors["turn_seconds"] = "between 5 and 600 seconds"
    return errors
