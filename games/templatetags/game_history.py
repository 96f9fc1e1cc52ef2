"""The games a player finished, as their page lists them. An inclusion tag,
so that the ratings' player page need not read the games."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template

from games.forms import PROFILE_LABELS
from games.recent_games import RecentGame, player_recent_games
from ratings.categories import CATEGORIES

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

register = template.Library()

RECENT_GAMES = 10


@register.inclusion_tag("games/_recent_games.html", takes_context=True)
def recent_games(context, player):
    """The last games ``player`` finished, with the rating each moved; the
    viewer sees their own private games too."""
    games = player_recent_games(
        player, viewer=context["request"].user, limit=RECENT_GAMES
    )
    return {"recent": [(game, _game_label(game)) for game in games]}


def _game_label(game: RecentGame) -> StrOrPromise:
    if game.category is not None:
        return CATEGORIES[game.category].label
    return PROFILE_LABELS.get(game.profile, game.profile)
