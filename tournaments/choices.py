"""The tournament formats, and the statuses of tournaments and entries.

Below the models and the formats: what each format does is its plug-in
(``tournaments.formats.plugins``), which reads the statuses, and the checks
of a tournament's settings (``tournaments.validation``) need the formats
too; the models run those checks, so none of them may import the models.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Format(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    KNOCKOUT = "knockout", _("Knockout")
    MULTITABLE = "multitable", _("Tables of four")
    ARENA = "arena", _("Arena")


class TournamentStatus(models.TextChoices):
    """``Tournament.Status``."""

    SCHEDULED = "scheduled", _("Registration open")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class EntryStatus(models.TextChoices):
    """``Entry.Status``."""

    REGISTERED = "registered", _("Registered")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    PLAYING = "playing", _("Playing")
    ELIMINATED = "eliminated", _("Knocked out")
    DROPPED = "dropped", _("Withdrawn for missing a round")
