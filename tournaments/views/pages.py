"""The tournament pages: the list, and one tournament's rules,
registration, standings and pairings.

The detail page's live part is also served alone (``?fragment=1``) for the
page's script to swap in whenever the tournament's WebSocket says something
changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import selectors
from tournaments.models import Tournament
from tournaments.views.presentation import CATEGORY_LABELS, detail_context

# Finished and cancelled tournaments listed, newest first.
RECENT_TOURNAMENTS = 20
# Upcoming and running tournaments listed, soonest first.
MAX_LISTED = 50


@dataclass
class ListRow:
    tournament: Tournament
    category: str
    players: int
    # The pool now, while it fills and is played for; the prizes paid once over.
    pool: int | None
    prizes: int | None


def _list_rows(tournaments) -> list[ListRow]:
    rows = []
    for tournament in tournaments:
        over = tournament.status in (
            Tournament.Status.FINISHED,
            Tournament.Status.CANCELLED,
        )
        rows.append(
            ListRow(
                tournament=tournament,
                category=str(CATEGORY_LABELS.get(tournament.category, "")),
                players=tournament.player_count,
                pool=None if over else selectors.pool_balance(tournament),
                prizes=tournament.prizes_paid
                if tournament.status == Tournament.Status.FINISHED
                else None,
            )
        )
    return rows


@never_cache
@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    status = Tournament.Status
    upcoming = (
        selectors.tournaments_counted()
        .filter(status=status.SCHEDULED)
        .order_by("starts_at", "pk")
    )
    running = (
        selectors.tournaments_counted()
        .filter(status=status.RUNNING)
        .order_by("starts_at", "pk")
    )
    recent = (
        selectors.tournaments_counted()
        .filter(status__in=[status.FINISHED, status.CANCELLED])
        .order_by("-starts_at", "-pk")
    )
    return render(
        request,
        "tournaments/list.html",
        {
            "upcoming": _list_rows(upcoming[:MAX_LISTED]),
            "running": _list_rows(running[:MAX_LISTED]),
            "recent": _list_rows(recent[:RECENT_TOURNAMENTS]),
        },
    )


@never_cache
@require_GET
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.tournaments_counted(), pk=tournament_id)
    context = detail_context(request, tournament)
    if request.GET.get("fragment"):
        return render(request, "tournaments/_live.html", context)
    return render(request, "tournaments/detail.html", context)
