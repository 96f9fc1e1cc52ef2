"""The signed-in player's wallet page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from coins import selectors, services
from coins.references import references_name

ENTRIES_PER_PAGE = 25


@login_required
def wallet(request: HttpRequest) -> HttpResponse:
    # Opening the wallet is when the day's refill (and, for a new player, the
    # welcome grant) happens.
    services.coins_refill_daily(user=request.user, today=timezone.localdate())
    account = services.wallet_of(request.user)
    page = Paginator(selectors.wallet_statement(account), ENTRIES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    named = references_name(entry.ref for entry in page)
    for entry in page:
        # The Django plugin loses the queryset's annotations through the
        # Paginator (``counterparty`` is ``wallet_statement``'s).
        kind = entry.counterparty  # type: ignore[attr-defined]
        entry.counterparty_label = selectors.counterparty_label(kind)
        entry.named = named.get(entry.ref)
    return render(
        request,
        "coins/wallet.html",
        {"wallet": account, "page": page, "refill_to": services.refill_to()},
    )
