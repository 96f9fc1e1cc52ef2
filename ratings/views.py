"""The ratings pages: leaderboards and player profiles (whose list of
recent games the games draw: ``games.templatetags.game_history``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.selectors import display_name
from common.replica import replica_reads
from ratings import selectors
from ratings.categories import CATEGORIES, DEFAULT_CATEGORY

LEADERBOARD_SIZE = 100
# The chart shows at most this many of the latest games.
CHART_GAMES = 200


@require_GET
@replica_reads
def leaderboard(request: HttpRequest, category: str | None = None) -> HttpResponse:
    if category is None:
        # /ratings/ opens where games are being rated: the category of the
        # latest rated game, or the default one before any.
        category = selectors.latest_rated_category() or DEFAULT_CATEGORY
    if category not in CATEGORIES:
        raise Http404("no such category")
    own = None
    if request.user.is_authenticated:
        own = selectors.player_standing(user_id=request.user.pk, category=category)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "categories": CATEGORIES.values(),
            "category": CATEGORIES[category],
            "standings": selectors.leaderboard(category, limit=LEADERBOARD_SIZE),
            "own": own,
        },
    )


@require_GET
@replica_reads
def player(request: HttpRequest, username: str) -> HttpResponse:
    user = selectors.player_by_username(username)
    if user is None:
        raise Http404("no such player")
    standings = selectors.player_standings(user)
    charts = []
    for standing in standings:
        history = selectors.rating_history(user_id=user.pk, category=standing.category)
        latest = list(history.reverse()[:CHART_GAMES])[::-1]
        if latest:
            values = [latest[0].before, *(c.after for c in latest)]
            charts.append((CATEGORIES[standing.category], standing, line_chart(values)))
    return render(
        request,
        "ratings/player.html",
        {
            "player": user,
            "name": display_name(user),
            "standings": [(s, CATEGORIES[s.category].label) for s in standings],
            "charts": charts,
        },
    )


@dataclass(frozen=True, slots=True)
class Chart:
    """A line chart laid out for an inline SVG."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    points: str
    ticks: list[tuple[float, int]]
    last: tuple[float, float]
    first_value: int
    last_value: int
    games: int


def line_chart(
    values: Sequence[int], *, width: int = 640, height: int = 200, margin: int = 10
) -> Chart:
    """Lay out ``values`` (a rating before the first shown game, then after
    each) as a polyline, with three labelled levels on the y axis."""
    left, right, top, bottom = 44, width - margin, margin, height - 24
    low, high = min(values), max(values)
    if high - low < 20:
        middle = (high + low) / 2
        low, high = round(middle - 10), round(middle + 10)
    span_x = max(len(values) - 1, 1)

    def x(i: int) -> float:
        return round(left + (right - left) * i / span_x, 1)

    def y(v: float) -> float:
        return round(bottom - (bottom - top) * (v - low) / (high - low), 1)

    points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    levels = [low, round((low + high) / 2), high]
    return Chart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        points=points,
        ticks=[(y(v), v) for v in levels],
        last=(x(len(values) - 1), y(values[-1])),
        first_value=values[0],
        last_value=values[-1],
        games=len(values) - 1,
    )
