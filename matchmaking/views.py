"""The quick-play page (/play/): choose a game and a stake, wait, be seated.

Joining and leaving go through ``matchmaking.services``; a refusal becomes a
message and changes nothing. While the player waits, static/js/quickplay.js
counts the time, keeps the pool's size fresh and opens the table as soon as
the player's WebSocket says they have one.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from coins import services as coins
from common.errors import ApplicationError, refusal_message
from matchmaking import grouping, selectors, services
from matchmaking.forms import QuickPlayForm, stake_label
from matchmaking.services import AWAY_SECONDS
from ratings.categories import CATEGORIES

# How often the page says it is still there (a third of AWAY_SECONDS).
PING_SECONDS = AWAY_SECONDS // 3


@never_cache
def play(request: HttpRequest) -> HttpResponse:
    return _render(request, _form())


@login_required
@require_POST
def join(request: HttpRequest) -> HttpResponse:
    form = _form(request.POST)
    if form.is_valid():
        try:
            services.pool_join(
                user=request.user,
                category=form.cleaned_data["category"],
                stake=form.cleaned_data["stake"],
                bots=form.cleaned_data["bots"],
                bots_rated=form.cleaned_data["bots_rated"],
                now=timezone.now(),
            )
        except ApplicationError as error:
            form.add_error(None, refusal_message(error, REFUSALS))
        else:
            return redirect("matchmaking:play")
    return _render(request, form, status=400)


@login_required
@require_POST
def cancel(request: HttpRequest) -> HttpResponse:
    try:
        services.pool_cancel(user=request.user)
    except ApplicationError as error:
        messages.error(request, refusal_message(error, REFUSALS))
    return redirect("matchmaking:play")


def _form(data=None) -> QuickPlayForm:
    return QuickPlayForm(
        data,
        high_stake=settings.PULKA_HIGH_STAKE,
        bot_wait=grouping.BOT_WAIT_SECONDS,
    )


# Refusals by code, in the player's language.
REFUSALS = {
    "already_waiting": gettext_lazy("You are already waiting for a game."),
    "not_waiting": gettext_lazy("You are not waiting for a game."),
    "ranked_elsewhere": gettext_lazy(
        "You have a seat at another ranked table: finish that game first."
    ),
    "few_coins": gettext_lazy("You have fewer Domino Coin than the stake."),
    "rating_needed": gettext_lazy(
        "This stake needs an established rating: play more rated games of "
        "this kind first."
    ),
}


def _render(request: HttpRequest, form: QuickPlayForm, status: int = 200):
    now = timezone.now()
    pools = [
        {
            "label": CATEGORIES[pool.category].label,
            "stake": stake_label(pool.stake),
            "players": pool.players,
            "oldest_wait": pool.oldest_wait,
        }
        for pool in selectors.pools(now=now)
        if pool.players
    ]
    context = {
        "form": form,
        "pools": pools,
        "ping_seconds": PING_SECONDS,
        "away_seconds": AWAY_SECONDS,
        "window_start": grouping.WINDOW_START,
        "window_max": grouping.WINDOW_MAX,
        "widen_per_second": grouping.WIDEN_PER_SECOND,
        "removed": request.GET.get("removed") is not None,
    }
    if request.user.is_authenticated:
        if request.method == "GET":
            # Opening the page is a sign that the player is here.
            services.pool_touch(user=request.user, now=now)
        status_ = selectors.pool_status(request.user, now=now)
        context["status"] = status_
        context["balance"] = coins.wallet_of(request.user).balance
        category, stake = status_.category, status_.stake
        # A waiting status has its pool.
        if status_.waiting and category is not None and stake is not None:
            context["category_label"] = CATEGORIES[category].label
            context["stake_label"] = stake_label(stake)
    return render(request, "matchmaking/play.html", context, status=status)
