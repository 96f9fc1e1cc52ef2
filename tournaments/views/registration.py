"""Registering and withdrawing from a tournament's page: through
``tournaments.services``, so a refusal becomes a message and changes nothing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from common.errors import ApplicationError, refusal_message
from tournaments import services
from tournaments.models import Tournament

# Why a registration or a withdrawal was refused, in the player's language.
REFUSALS = {
    "closed": gettext_lazy("Registration for this tournament is closed."),
    "full": gettext_lazy("The tournament is full."),
    "registered": gettext_lazy("You are already registered for this tournament."),
    "not_registered": gettext_lazy("You are not registered for this tournament."),
    "few_coins": gettext_lazy(
        "The entry fee is %(fee)s Domino Coin, and your wallet holds fewer."
    ),
    "inactive": gettext_lazy("This account may not play."),
}


@login_required
@require_POST
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _entry_change(
        request,
        tournament_id,
        services.tournament_register,
        paid=_(
            "You are registered. The entry fee of %(fee)d Domino Coin "
            "is in the prize pool."
        ),
        free=_("You are registered."),
    )


@login_required
@require_POST
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _entry_change(
        request,
        tournament_id,
        services.tournament_withdraw,
        paid=_("You withdrew; the entry fee of %(fee)d Domino Coin is back."),
        free=_("You withdrew."),
    )


def _entry_change(
    request: HttpRequest, tournament_id: int, service, *, paid: str, free: str
) -> HttpResponse:
    """Register or withdraw through ``service``, and say how it went: ``paid``
    (with the fee) or ``free`` when it worked, the refusal when not."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        service(tournament_id=tournament.pk, user=request.user)
    except ApplicationError as error:
        messages.error(
            request, refusal_message(error, REFUSALS, fee=tournament.entry_fee)
        )
    else:
        if tournament.entry_fee:
            messages.success(request, paid % {"fee": tournament.entry_fee})
        else:
            messages.success(request, free)
    return redirect("tournaments:detail", tournament_id=tournament.pk)
