"""Tournaments and their recurring schedules: the settings both share, and
the tournament's own life (status, start, its clock)."""

from __future__ import annotations

from datetime import timedelta

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from joker.rules import JAPANESE_TARGETS
from ratings.categories import CATEGORIES, category_of, preset
from tournaments.choices import Format, TournamentStatus
from tournaments.formats.plugins import format_of
from tournaments.validation import check_settings

TOURNAMENT_CATEGORIES = [
    (slug, CATEGORIES[slug].label) for slug in ("joker", "joker-nines", "japanese")
]


def default_prize_split() -> list:
    return [50, 30, 20]


def default_points() -> list:
    return [4, 2, 1, 0]


class TournamentSettings(models.Model):
    """What a tournament plays and costs; shared by tournaments and the
    recurring schedules that create them."""

    name = models.CharField(_("name"), max_length=100)
    category = models.CharField(
        _("category"), max_length=32, choices=TOURNAMENT_CATEGORIES
    )
    format = models.CharField(_("format"), max_length=16, choices=Format.choices)
    rounds = models.PositiveSmallIntegerField(
        _("rounds"),
        default=3,
        validators=[MinValueValidator(1)],
        help_text=_(
            "Swiss and tables of four; a knockout plays until one is left, "
            "an arena until its time is up."
        ),
    )
    duration_minutes = models.PositiveSmallIntegerField(
        _("duration (minutes)"),
        default=60,
        help_text=_(
            "Arena: how long players are paired; games still being played "
            "then finish and count."
        ),
    )
    short_match = models.BooleanField(
        _("short match"),
        default=False,
        help_text=_("Japanese Joker to 11 points; Joker plays the nines schedule."),
    )
    rated = models.BooleanField(
        _("rated"),
        default=True,
        help_text=_(
            "Games between people are rated in the category of their rules. "
            "Japanese Joker to 11 points has no category and is never rated; "
            "a table with a bot is not rated."
        ),
    )
    final_table = models.BooleanField(
        _("final table"),
        default=False,
        help_text=_("Tables of four: the last round is one table of the top four."),
    )
    points_for_places = models.JSONField(
        _("points for places"),
        default=default_points,
        help_text=_("Tables of four: tournament points for 1st, 2nd, 3rd, 4th."),
    )
    entry_fee = models.PositiveIntegerField(_("entry fee (Domino Coin)"), default=0)
    min_players = models.PositiveSmallIntegerField(
        _("minimum players"), default=4, validators=[MinValueValidator(2)]
    )
    max_players = models.PositiveSmallIntegerField(
        _("maximum players"), default=32, validators=[MinValueValidator(2)]
    )
    prize_split = models.JSONField(
        _("prize split (percent by place)"),
        default=default_prize_split,
        help_text=_("For example [50, 30, 20]: adds up to 100, never increases."),
    )
    turn_seconds = models.PositiveSmallIntegerField(
        _("turn timer (seconds)"), default=30
    )

    class Meta:
        abstract = True

    @property
    def players_per_table(self) -> int:
        return CATEGORIES[self.category].players

    def game_profile(self) -> tuple[str, dict]:
        """The rule profile and options its games are played with."""
        profile, options = preset(self.category)
        options = dict(options)
        if self.short_match:
            if profile == "japanese":
                options["target"] = min(JAPANESE_TARGETS)
            else:
                options["schedule"] = "nines"
        return profile, options

    @property
    def rating_category(self) -> str | None:
        """The rating category its games are rated in; None when unrated."""
        if not self.rated:
            return None
        return category_of(*self.game_profile())

    def clean(self):
        errors = check_settings(self)
        if errors:
            raise ValidationError(errors)


class Schedule(TournamentSettings):
    """A recurring tournament: one is created for every start it lists,
    ``create_ahead_hours`` before that start, so players can register."""

    time_of_day = models.TimeField(_("start time (UTC)"))
    weekdays = models.CharField(
        _("weekdays"),
        max_length=7,
        default="0123456",
        help_text=_("Days it runs, 0 = Monday ... 6 = Sunday; '0123456' is daily."),
    )
    create_ahead_hours = models.PositiveSmallIntegerField(
        _("open registration (hours before)"), default=24
    )
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("recurring tournament")
        verbose_name_plural = _("recurring tournaments")
        ordering = ["time_of_day", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.time_of_day:%H:%M})"

    def clean(self):
        super().clean()
        if not self.weekdays or any(day not in "0123456" for day in self.weekdays):
            raise ValidationError({"weekdays": _("Use digits 0 (Monday) to 6.")})


class Tournament(TournamentSettings):
    Status = TournamentStatus

    # Counted by the admin's list (``TournamentAdmin.get_queryset``).
    _players: int

    starts_at = models.DateTimeField(_("starts at"), db_index=True)
    status = models.CharField(
        _("status"),
        max_length=16,
        choices=Status.choices,
        default=Status.SCHEDULED,
        db_index=True,
    )
    schedule = models.ForeignKey(
        Schedule,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("recurring tournament"),
    )
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    cancel_reason = models.CharField(
        _("why cancelled"), max_length=200, blank=True, default=""
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "-id"]
        constraints = [
            # A schedule creates one tournament per start, however many
            # beat processes ask at once.
            models.UniqueConstraint(
                fields=["schedule", "starts_at"], name="one_tournament_per_start"
            ),
        ]
        permissions = [("cancel_tournament", "Can cancel tournaments")]

    def __str__(self) -> str:
        return f"{self.name} ({self.starts_at:%Y-%m-%d %H:%M})"

    @property
    def pool_ref(self) -> str:
        return f"tournament:{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.SCHEDULED

    @property
    def continuous(self) -> bool:
        """Players are paired as they become free (an arena): its games are
        numbered one after another, in a single round."""
        return format_of(self.format).continuous

    @property
    def ends_at(self):
        """Arena: when pairing stops (None before the start, or another
        format)."""
        if not format_of(self.format).continuous or self.started_at is None:
            return None
        return self.started_at + timedelta(minutes=self.duration_minutes)
