"""The tournament formats, and which of them suit which number of players
at a table.

Below the models: the checks of a tournament's settings
(``tournaments.validation``) need these too, and the models run those
checks, so neither may import the other for them.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Format(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    KNOCKOUT = "knockout", _("Knockout")
    MULTITABLE = "multitable", _("Tables of four")
    ARENA = "arena", _("Arena")


# Which formats suit which number of players at a table.
TWO_PLAYER_FORMATS = {Format.SWISS, Format.KNOCKOUT, Format.ARENA}
FOUR_PLAYER_FORMATS = {Format.MULTITABLE}
