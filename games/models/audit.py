"""The audit log of the hidden cards an operator opened."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.events import Game


class HandsRead(models.Model):
    """The audit log of the one way anyone sees a game's hidden cards while
    it is played: an operator with ``games.view_live_hands`` opening its
    state or a deal's record in the admin. Append-only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # What was opened: "game" or "deal <n>".
    what = models.CharField(max_length=32)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("live hands read")
        verbose_name_plural = _("live hands read")

    def __str__(self) -> str:
        return f"{self.by} read {self.what} of game {self.game_id}"
