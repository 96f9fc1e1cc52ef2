"""Writes of the accounts app."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts.models import Profile


def profile_get_or_create(user) -> Profile:
    """The user's profile, created empty on first need."""
    profile, _ = Profile.objects.get_or_create(user=user)
    # Replace a cached "no profile" on this user object.
    user.profile = profile
    return profile


def profile_update(*, user, display_name: str, language: str) -> Profile:
    """Set the name shown at tables and the language of the site ("" for
    automatic)."""
    languages = {code for code, _ in settings.LANGUAGES}
    if language and language not in languages:
        raise ValueError(f"unknown language {language!r}")
    profile = profile_get_or_create(user)
    profile.display_name = display_name.strip()
    profile.language = language
    profile.save(update_fields=["display_name", "language"])
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
