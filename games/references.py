"""How the ledger names a game's stakes (``game:<id>``): the game and its
table in words, linked to the replay once the game is over, else to the
table."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from coins.references import Named
from games.models import Game


def games_named(ids: list[int]) -> dict[int, Named]:
    named = {}
    for game in Game.objects.filter(pk__in=ids).only("pk", "status", "table_id"):
        url = (
            reverse("games:replay", args=[game.pk])
            if game.status != Game.Status.PLAYING
            else reverse("games:table", args=[game.table_id])
        )
        label = _("Game %(game)d at table %(table)d") % {
            "game": game.pk,
            "table": game.table_id,
        }
        named[game.pk] = Named(label, url)
    return named
