"""Reads of the accounts app."""

from __future__ import annotations

from accounts.models import Profile


def _profile(user) -> Profile | None:
    # The reverse one-to-one caches a miss too, so this queries at most once
    # per user object (or never, with select_related("profile")).
    try:
        return user.profile
    except Profile.DoesNotExist:
        return None


def display_name(user) -> str:
    """The name shown for ``user`` at tables: the display name, else the
    username."""
    profile = _profile(user)
    if profile is not None and profile.display_name:
        return profile.display_name
    return user.get_username()


def language_of(user) -> str:
    """The language ``user`` chose, or "" for automatic."""
    profile = _profile(user)
    return profile.language if profile is not None else ""


def time_zone_of(user) -> str:
    """The time zone ``user`` chose, or "" for automatic."""
    profile = _profile(user)
    return profile.time_zone if profile is not None else ""
