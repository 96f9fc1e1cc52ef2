"""What a player chooses about themselves: the name shown at tables and the
language of the site."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MAX_LENGTH = 32


class Profile(models.Model):
    """One per user, created on first need (``services.profile_get_or_create``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    # Shown at tables instead of the username when set.
    display_name = models.CharField(
        _("display name"), max_length=DISPLAY_NAME_MAX_LENGTH, blank=True
    )
    # Blank: follow the language cookie and the browser, as for anonymous users.
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True
    )

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()
