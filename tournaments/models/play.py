"""Who plays in a tournament and where: entries, rounds, and each round's
boards with their seats."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.choices import EntryStatus
from tournaments.models.tournaments import Tournament


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
