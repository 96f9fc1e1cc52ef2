"""Tournaments, their recurring schedules, entries, rounds and boards.

A tournament is set up by staff (or created by a ``Schedule``), takes
registrations until it starts, then plays rounds. Each round is a set of
boards: a board is one live table (``games.Table``) with its seats, or a bye.
Standings are not stored: they are computed from the boards' results by
each format's plug-in (``tournaments.formats.plugins``, through
``tournaments.standings``). All
changes go through ``tournaments.services``.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from joker.rules import JAPANESE_TARGETS
from ratings.categories import CATEGORIES, category_of, preset
from tournaments.choices import EntryStatus, Format, TournamentStatus
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
    def ends_at(self):
        """Arena: when pairing stops (None before the start, or another
        format)."""
        if not format_of(self.format).continuous or self.started_at is None:
            return None
        return self.started_at + timedelta(minutes=self.duration_minutes)


class Entry(models.Model):
    """A player's place in a tournament, from registration to final place."""

    Status = EntryStatus

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=_("tournament"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
        verbose_name=_("user"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.REGISTERED
    )
    # Counts registrations (a player may withdraw and come back before the
    # start); the fee's ledger keys carry it, so each payment is its own.
    registrations = models.PositiveSmallIntegerField(
        default=1, verbose_name=_("registrations")
    )
    rating = models.IntegerField(_("rating at the start"), null=True, blank=True)
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("final place"), null=True, blank=True)
    prize = models.PositiveIntegerField(_("prize"), default=0)
    registered_at = models.DateTimeField(
        auto_now_add=True, verbose_name=_("registered at")
    )

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "place", "seed", "registered_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="one_entry_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament_id}"

    @property
    def in_play(self) -> bool:
        """Still to be paired in later rounds."""
        return self.status == self.Status.PLAYING


class Round(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="round_set",
        verbose_name=_("tournament"),
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    status = models.CharField(
        max_length=16,
        choices=Status.choices,
        default=Status.PLAYING,
        verbose_name=_("status"),
    )
    is_final_table = models.BooleanField(default=False, verbose_name=_("final table"))
    started_at = models.DateTimeField(auto_now_add=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("finished at")
    )

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="one_round_per_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class Board(models.Model):
    """One table of a round (or a bye): who sits where, and how it ended."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="boards", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    table = models.OneToOneField(
        "games.Table",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_board",
        verbose_name=_("table"),
    )
    is_bye = models.BooleanField(default=False, verbose_name=_("bye"))
    # Set once the table's game has ended and its result is copied to the
    # seats below.
    finished = models.BooleanField(default=False, verbose_name=_("finished"))

    class Meta:
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "number"], name="one_board_per_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} board {self.number}"


class BoardSeat(models.Model):
    """A seat of a board: an entry or a bot (``entry`` empty), its result."""

    board = models.ForeignKey(
        Board, on_delete=models.CASCADE, related_name="seats", verbose_name=_("board")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    entry = models.ForeignKey(
        Entry,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="board_seats",
        verbose_name=_("entry"),
    )
    # Filled when the game ends: 1 = first; ties share a place.
    place = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("place")
    )
    score = models.IntegerField(null=True, blank=True, verbose_name=_("score"))
    won = models.BooleanField(default=False, verbose_name=_("won"))
    # The player made no move of their own in this game (timers played it).
    absent = models.BooleanField(default=False, verbose_name=_("absent"))
    # Swiss: the player's points before the round and the float the pairing
    # gave them (C.04.3 A.4), noted when the round is paired, as the
    # arbiter's pairing list shows them; later results, withdrawals and
    # called-off games would make them wrong to work out afterwards.
    points_before = models.DecimalField(
        max_digits=5,
        decimal_places=1,
        null=True,
        blank=True,
        verbose_name=_("points before"),
    )

    class Float(models.TextChoices):
        NONE = "", _("none")
        UP = "up", _("up")
        DOWN = "down", _("down")

    floated = models.CharField(
        max_length=4,
        choices=Float.choices,
        default=Float.NONE,
        blank=True,
        verbose_name=_("floated"),
    )

    class Meta:
        verbose_name = _("board seat")
        verbose_name_plural = _("board seats")
        ordering = ["board", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["board", "number"], name="one_board_seat_per_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.board} seat {self.number}"

    @property
    def is_bot(self) -> bool:
        return self.entry_id is None
