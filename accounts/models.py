"""What a player chooses about themselves (the name shown at tables, the
language of the site, the time zone of its times), what the site notes of
how the account came to be, the ranked games between accounts seen at one
address, and bans."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MAX_LENGTH = 32


class Profile(models.Model):
    """One per user, created on first need (``services.profile_get_or_create``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    # Shown at tables instead of the username when set.
    display_name = models.CharField(
        _("display name"), max_length=DISPLAY_NAME_MAX_LENGTH, blank=True
    )
    # Blank: follow the language cookie and the browser, as for anonymous users.
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True
    )
    # An IANA zone name (accounts.timezones); blank: the browser's zone.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)
    # Made by the public sign-up page, where anyone can make accounts for
    # nothing: such an account stakes no Domino Coin in a category before
    # its rating there is established (games.stakes.check_may_sit). An
    # account an operator or the demo made is vouched for by its maker.
    signed_up = models.BooleanField(_("signed up on the site"), default=False)
    # Keyed digests (accounts.addresses) of the address the account signed
    # up from and of the one it last logged in from; never the addresses.
    signup_address = models.CharField(
        _("sign-up address (digest)"), max_length=64, blank=True, db_index=True
    )
    login_address = models.CharField(
        _("last login address (digest)"), max_length=64, blank=True, db_index=True
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


class SharedAddress(models.Model):
    """Two players of a ranked game whose accounts were seen at one address
    (accounts.farming): listed for operators, and a game that one of them
    left is not rated."""

    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="shared_addresses",
        verbose_name=_("game"),
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    other = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("other player"),
    )
    # Both signed up from the address; or one's latest login was made from
    # where the other signed up or last logged in.
    same_signup_address = models.BooleanField(_("signed up from one address"))
    same_login_address = models.BooleanField(_("logged in from one address"))
    created_at = models.DateTimeField(verbose_name=_("created at"))

    class Meta:
        verbose_name = _("game between accounts at one address")
        verbose_name_plural = _("games between accounts at one address")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player", "other"], name="one_shared_address_a_pair"
            ),
            # Each pair once, the lower user id first.
            models.CheckConstraint(
                condition=models.Q(player__lt=models.F("other")),
                name="shared_address_pair_in_order",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.player} and {self.other}"


class Ban(models.Model):
    """An operator's ban of a player: whom, by whom, why and when.

    The ban itself is the account turned inactive (``accounts.bans``): Django
    refuses inactive users at login, and the live-play sockets refuse them
    too. This row is the record of the decision.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="bans",
        verbose_name=_("player"),
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("by"),
    )
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("ban")
        verbose_name_plural = _("bans")
        ordering = ["-created_at", "-id"]
        permissions = [("ban_user", "Can ban players")]

    def __str__(self) -> str:
        return f"{self.user} ({self.created_at:%Y-%m-%d})"


class NameKey(models.Model):
    """What a name a player goes by (their username, their display name)
    looks like (``common.lookalikes.skeleton``), one row per distinct look:
    unique, so that no two players' names look alike, even when two
    sign-ups or profile changes ask for look-alikes at the same moment
    (``accounts.names``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="name_keys",
        verbose_name=_("user"),
    )
    key = models.CharField(_("looks like"), max_length=256, unique=True)

    class Meta:
        verbose_name = _("name as it looks")
        verbose_name_plural = _("names as they look")

    def __str__(self) -> str:
        return self.key
