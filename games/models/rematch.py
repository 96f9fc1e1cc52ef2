"""The players' offer to play a finished game again."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.events import Game
from games.models.tables import Table


class Rematch(models.Model):
    """The players' offer to play a finished game again at a new table.

    One row per game: ``agreed`` lists the seats whose person said yes (bots
    agree at once). When every person of the game has agreed, the new table
    is made (``table``) and the offer is over; it lapses when a player
    declines or leaves the page, when someone may no longer take their seat,
    or at ``expires_at``. A lapsed offer may be made again; a made one never
    (``games.services.rematch``).
    """

    class State(models.TextChoices):
        OPEN = "open", _("Open")
        MADE = "made", _("Made")
        LAPSED = "lapsed", _("Lapsed")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch")
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    agreed = models.JSONField(default=list, blank=True)
    # Why it lapsed: "declined", "left", "expired" or a seat's refusal code
    # ("few_coins", ...), and the seat it came from (None for "expired").
    reason = models.CharField(max_length=32, blank=True, default="")
    reason_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    expires_at = models.DateTimeField()
    table = models.OneToOneField(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_of",
    )
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("rematch")
        verbose_name_plural = _("rematches")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(state="made", table__isnull=False)
                | ~models.Q(state="made"),
                name="a_made_rematch_has_a_table",
            ),
        ]

    def __str__(self) -> str:
        return f"Rematch of game {self.game_id} ({self.state})"
