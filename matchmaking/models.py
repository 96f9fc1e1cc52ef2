"""Quick-play pools: who is waiting, and the matches made from them.

A ``PoolEntry`` exists while its player waits; it is deleted when the player
is matched or leaves. One entry per user, by a unique key, so a player is
never in two pools at once. Each match leaves a ``Match`` row behind.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.stakes import STAKE_CHOICES
from ratings.categories import CATEGORY_CHOICES

STAKE_FIELD_CHOICES = [(stake, str(stake)) for stake in STAKE_CHOICES]


class PoolEntry(models.Model):
    """A player waiting in the pool of one category and stake."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="pool_entry",
        verbose_name=_("player"),
    )
    category = models.CharField(_("category"), max_length=32, choices=CATEGORY_CHOICES)
    stake = models.PositiveIntegerField(_("stake"), choices=STAKE_FIELD_CHOICES)
    # The rating the player is matched by: their rating when they joined.
    rating = models.IntegerField(_("rating"))
    joined_at = models.DateTimeField(_("joined"))
    # The last sign of the player's browser (or API client); a player gone
    # quiet for too long leaves the pool (``services.AWAY_SECONDS``).
    seen_at = models.DateTimeField(_("last seen"))
    # In a 4-player category without a stake: after ``services.BOT_WAIT_SECONDS``
    # the player is seated with practice bots in the seats nobody took.
    bots = models.BooleanField(_("bots after the wait"), default=True)
    # Such a table with bots counts for the rating (docs/ratings.md).
    bots_rated = models.BooleanField(_("rated with bots"), default=False)

    class Meta:
        verbose_name = _("waiting player")
        verbose_name_plural = _("waiting players")
        ordering = ["joined_at", "id"]
        indexes = [
            models.Index(
                fields=["category", "stake", "joined_at"], name="pool_by_join"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.category}/{self.stake}"


class Match(models.Model):
    """A group made from a pool and the ranked table it was seated at."""

    category = models.CharField(_("category"), max_length=32, choices=CATEGORY_CHOICES)
    stake = models.PositiveIntegerField(_("stake"), choices=STAKE_FIELD_CHOICES)
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.CASCADE,
        related_name="matches",
        verbose_name=_("table"),
    )
    players = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="quickplay_matches",
        verbose_name=_("players"),
    )
    # Each player's rating and seconds waited, for tuning the windows:
    # [{"user": id, "rating": 1500, "waited": 12.5}, ...]
    detail = models.JSONField(_("detail"), default=list)
    created_at = models.DateTimeField(_("matched at"))

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Match {self.pk}: table {self.table_id}"
