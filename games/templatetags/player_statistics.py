"""A player's statistics on their page (``games.statistics``), as an
inclusion tag, so that the ratings' player page need not read the games;
counted over the games the viewer may see."""

from __future__ import annotations

from django import template

from games.statistics import player_statistics
from ratings.categories import CATEGORIES
from ratings.views import line_chart

register = template.Library()


@register.inclusion_tag("games/_player_statistics.html", takes_context=True)
def statistics(context, player):
    rows = player_statistics(player, viewer=context["request"].user)
    shown = []
    for row in rows:
        trend = [point["accuracy"] for point in row["trend"]]
        chart = line_chart([round(a) for a in trend]) if len(trend) >= 2 else None
        shown.append(
            {
                **row,
                "label": CATEGORIES[row["category"]].label,
                "japanese": row["category"] == "japanese",
                "chart": chart,
                # The chart's own count takes its first value for a "before".
                "reviewed_games": len(trend),
            }
        )
    return {"categories": shown}
