"""Tables and their seats: where a game is played, under which rules, and
who (or which bot) holds each seat."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.selectors import display_name
from games import statuses
from games.settlement import DEFAULT_POINTS_PER_COIN, POINTS_PER_COIN_CHOICES
from joker import make_rules
from joker.rules import PROFILE_NAMES

PROFILE_CHOICES = list(PROFILE_NAMES.items())


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    """A place to play one game: a rule profile, its options, the timer."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = statuses.PLAYING, _("Playing")
        FINISHED = statuses.FINISHED, _("Finished")
        ABORTED = statuses.ABORTED, _("Aborted")

    class Settlement(models.TextChoices):
        POT = "pot", _("The winners take the pot")
        SCORE = "score", _("By score")

    profile = models.CharField(max_length=32, choices=PROFILE_CHOICES)
    options = models.JSONField(default=dict, blank=True)
    turn_seconds = models.PositiveSmallIntegerField(default=30)
    is_private = models.BooleanField(default=False)
    # A ranked table plays a category's standard rules between people; its
    # games move ratings. ``stake`` Domino Coin per seat go into escrow when
    # the game starts (0: no stake).
    ranked = models.BooleanField(default=False)
    stake = models.PositiveIntegerField(default=0)
    # How a staked game's escrow is paid out: all of it to the winners, or by
    # score (``games.settlement``), one coin per ``points_per_coin`` points
    # between each pair of players, the stake being each player's deposit.
    settlement = models.CharField(
        max_length=8, choices=Settlement.choices, default=Settlement.POT
    )
    points_per_coin = models.PositiveIntegerField(
        choices=[(rate, str(rate)) for rate in POINTS_PER_COIN_CHOICES],
        default=DEFAULT_POINTS_PER_COIN,
    )
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    # After this many timed-out moves in a row a person forfeits the seat (a
    # bot plays on; in Japanese Joker the game is lost); 0: never. Tournament
    # tables set it, so a player who never shows up cannot stall a round.
    forfeit_after_timeouts = models.PositiveSmallIntegerField(default=0)
    # Seated by the site (a tournament round), not by the players: nobody
    # may call its game off.
    managed = models.BooleanField(default=False)
    # A ranked table with practice bots at it whose game is rated all the
    # same (quick play's ranked option): each bot counts as an opponent of
    # its level's fixed rating (docs/ratings.md, "Bot seats").
    rated_with_bots = models.BooleanField(default=False)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(settlement="pot")
                | models.Q(ranked=True, stake__gt=0),
                name="score_settlement_needs_a_stake",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.profile})"

    @property
    def settled_by_score(self) -> bool:
        return self.settlement == self.Settlement.SCORE

    @property
    def rules(self):
        return make_rules(self.profile, self.options)

    @property
    def players(self) -> int:
        return 2 if self.profile == "japanese" else 4


class Seat(models.Model):
    """One seat of a table, held by a person or a bot.

    A person who leaves a game in progress (or stays away past the grace
    period) keeps the seat with ``left`` set; a bot then plays it.
    """

    # The name shown, when read with the seat (``games.rows``).
    shown_name: str

    class Bot(models.TextChoices):
        NONE = "", _("Person")
        # The practice bots' levels (games.live.thinking.LEVELS).
        EASY = "easy", _("Easy bot")
        PRACTICE = "practice", _("Practice bot")
        STRONG = "strong", _("Strong bot")
        AUTOPILOT = "autopilot", _("Autopilot")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot = models.CharField(max_length=16, choices=Bot.choices, blank=True, default="")
    left = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.number}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot

    @property
    def played_by_bot(self) -> bool:
        return bool(self.bot) or self.left

    @property
    def display_name(self) -> str:
        if self.bot:
            return f"{Seat.Bot(self.bot).label} {self.number + 1}"
        if self.user_id is None:
            return ""
        # Reads of a whole table's seats fetch the names with them.
        shown = getattr(self, "shown_name", None)
        if shown is not None:
            return shown
        return display_name(self.user)
