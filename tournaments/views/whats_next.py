"""What comes next after a tournament game, for the result on its table
page: the next round's time and table, or why there is none yet. An HTML
fragment, rendered in the player's language and time zone, that the table
page's script shows under the result (static/js/table/next_game.js)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import selectors


@login_required
@never_cache
@require_GET
def next_game(request: HttpRequest, table_id: int) -> HttpResponse:
    """The fragment; 204 when the table is no tournament's or the player
    plays no part in its tournament."""
    found = selectors.next_after(table_id, request.user)
    if found is None:
        return HttpResponse(status=204)
    return render(request, "tournaments/_next_game.html", {"next": found})
