"""The deal review of a finished game (docs/review.md): every human seat's
decisions judged from what that seat knew, made in the background by the
worker of the reviews queue and kept with the version of the bot that
made it."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.events import Game


class GameReview(models.Model):
    """One game's review: queued when the game finished, then running, then
    done (``data``: one ``joker.review`` review per seat a person held) or
    failed (``error``). ``version`` is ``joker.review.version()`` of the
    code that made it; a review of another version is out of date."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED
    )
    version = models.CharField(_("version"), max_length=40, blank=True, default="")
    data = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    queued_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("game review")
        verbose_name_plural = _("game reviews")

    def __str__(self) -> str:
        return f"Review of game {self.game_id}"
