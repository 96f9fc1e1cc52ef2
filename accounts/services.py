"""Writes of the accounts app."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts import names, timezones
from accounts.models import Profile


def profile_get_or_create(user) -> Profile:
    """The user's profile, created empty on first need."""
    profile, _ = Profile.objects.get_or_create(user=user)
    # Replace a cached "no profile" on this user object.
    user.profile = profile
    return profile


def profile_update(
    *, user, display_name: str, language: str, time_zone: str | None = None
) -> Profile:
    """Set the name shown at tables, the language of the site and the time
    zone of its times ("" for automatic; a ``time_zone`` of None keeps it).
    A display name with a hidden character, or looking like another
    player's name, is refused (``NameHidden``, ``NameTaken``; nothing
    changed)."""
    languages = {code for code, _ in settings.LANGUAGES}
    if language and language not in languages:
        raise ValueError(f"unknown language {language!r}")
    if time_zone and timezones.zone_named(time_zone) is None:
        raise ValueError(f"unknown time zone {time_zone!r}")
    display_name = display_name.strip()
    if display_name:
        names.check_name(display_name, user=user)
    profile = profile_get_or_create(user)
    profile.display_name = display_name
    profile.language = language
    fields = ["display_name", "language"]
    if time_zone is not None:
        profile.time_zone = time_zone
        fields.append("time_zone")
    with transaction.atomic():
        profile.save(update_fields=fields)
        names.names_claim(user)
    return profile


def profile_set_language(*, user, language: str) -> Profile:
    """Set only the language: the site's language switch for a signed-in user."""
    profile = profile_get_or_create(user)
    return profile_update(
        user=user, display_name=profile.display_name, language=language
    )


def api_token_create(user) -> str:
    """A new personal API token for ``user``, replacing any earlier one
    (which stops working at once). The key is returned to be shown once."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user).key


def api_token_revoke(user) -> bool:
    """Revoke the user's API token; False when they had none."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)
