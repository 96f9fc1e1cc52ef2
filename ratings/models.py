"""Ratings per category and the record of every change.

``Rating`` is the current value, ``RatingChange`` the append-only history it
is the sum of: for every rating, ``rating == elo.START + sum(delta)`` over its
changes, and ``games`` is their number. ``RatingCount`` counts the ratings by
value, for ranks. All three change only through ``ratings.services``, under
row locks.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ratings import elo
from ratings.categories import CATEGORY_CHOICES


class Rating(models.Model):
    """A player's rating in one category; exists from the first rated game."""

    # Indexed by the unique constraint on (user, category).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ratings",
        db_index=False,
        verbose_name=_("user"),
    )
    category = models.CharField(_("category"), max_length=32, choices=CATEGORY_CHOICES)
    rating = models.IntegerField(_("rating"), default=elo.START)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    peak = models.IntegerField(_("peak"), default=elo.START)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "category"], name="one_rating_per_category"
            ),
            models.CheckConstraint(
                condition=Q(peak__gte=F("rating")), name="peak_at_least_rating"
            ),
        ]
        indexes = [
            # The leaderboard's order: a page is a range of this index.
            models.Index(
                fields=["category", "-rating", "id"], name="rating_leaderboard"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.category}: {self.rating}"

    @property
    def provisional(self) -> bool:
        return self.games < elo.PROVISIONAL_GAMES


class RatingChange(models.Model):
    """What one rated game did to one player's rating. Append-only; removed
    only when the game is annulled (``services.rating_revert_game``)."""

    # The seat the player sat in, where a game's page says it
    # (``games.serializers``).
    seat: int | None

    game = models.ForeignKey(
        "games.Game",
        on_delete=models.PROTECT,
        related_name="rating_changes",
        verbose_name=_("game"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="rating_changes",
        verbose_name=_("user"),
    )
    category = models.CharField(_("category"), max_length=32, choices=CATEGORY_CHOICES)
    before = models.IntegerField(_("before"))
    after = models.IntegerField(_("after"))
    delta = models.IntegerField(_("change"))
    created_at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            # Applying a game twice cannot count it twice.
            models.UniqueConstraint(
                fields=["game", "user"], name="one_rating_change_per_game"
            ),
            models.CheckConstraint(
                condition=Q(after=F("before") + F("delta")),
                name="rating_change_adds_up",
            ),
        ]
        indexes = [
            models.Index(
                fields=["user", "category", "created_at"], name="rating_history"
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id}, {self.user}: {self.delta:+d}"


class LopsidedPair(RatingChange):
    """The rating changes read as pairs of accounts, one of which keeps
    gaining from the other (``selectors.lopsided_pairs``): the operators'
    report of possible rating farming. A proxy with no rows of its own, so
    that the report has its place among the ratings in the admin, and a
    permission to view it."""

    class Meta:
        proxy = True
        verbose_name = _("lopsided pair")
        verbose_name_plural = _("lopsided pairs")


class UnratedReason(models.TextChoices):
    """Why a game at a ranked table moved no rating: each is a rule of
    ``services.rating_decision``, except the annulment, an operator's."""

    OFF_PRESET = "off_preset", _("the table does not play a category's standard rules")
    BOT_SEAT = "bot_seat", _("a seat was played by a bot")
    SHARED_ADDRESS = (
        "shared_address",
        _("a player who left shares an address with another player of the game"),
    )
    PROVISIONAL_LEFT = (
        "provisional_left",
        _(
            "a new account, its rating still provisional, left the game, and a "
            "game such an account leaves moves nobody's rating"
        ),
    )
    PROVISIONAL_TIMED_OUT = (
        "provisional_timed_out",
        _(
            "a new account, its rating still provisional, let its time run out "
            "on a quarter of its turns or more, which counts as leaving the game"
        ),
    )
    ANNULLED = "annulled", _("the operators annulled the game")


class UnratedGame(models.Model):
    """A finished game the ratings were given and did not rate, with the
    rule that decided it, so that its result says why exactly. A rated
    game's record is its ``RatingChange`` rows; an annulled one needs no row
    (the game says it was annulled)."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="unrated"
    )
    category = models.CharField(
        _("category"), max_length=32, choices=CATEGORY_CHOICES, blank=True
    )
    reason = models.CharField(_("reason"), max_length=32, choices=UnratedReason)
    created_at = models.DateTimeField(_("at"), default=timezone.now)

    def __str__(self) -> str:
        return f"Game {self.game_id}: {self.reason}"


class RatingCount(models.Model):
    """How many players of a category hold each rating.

    A player's rank is one more than the number of players rated above them.
    Counting those ratings one by one takes time in proportion to the rank
    (a million index entries for the last of a million players); summing
    these counts takes at most one row per rating value, a few thousand
    whatever the number of players. Kept by ``ratings.services`` in the same
    transaction as the ratings, so it always matches them.
    """

    category = models.CharField(_("category"), max_length=32, choices=CATEGORY_CHOICES)
    rating = models.IntegerField(_("rating"))
    players = models.PositiveIntegerField(_("players"), default=0)

    class Meta:
        verbose_name = _("rating count")
        verbose_name_plural = _("rating counts")
        constraints = [
            models.UniqueConstraint(
                fields=["category", "rating"], name="one_count_per_rating"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.category} {self.rating}: {self.players}"
