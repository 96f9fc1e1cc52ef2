"""Background work of the coin ledger."""

from __future__ import annotations

from celery import shared_task
from django.contrib.auth import get_user_model
from django.utils import timezone

from coins import services
from coins.models import Account


@shared_task
def refill_all() -> int:
    """Give today's refill to every wallet below the mark; return how many
    wallets have had it.

    Safe to run any number of times a day: each refill is keyed by user and
    date. Wallets are topped up when their owner opens the wallet page anyway;
    this task (for celery beat, once a day) does it for everybody else.
    """
    today = timezone.localdate()
    owner_ids = Account.objects.filter(
        kind=Account.Kind.WALLET, balance__lt=services.refill_to()
    ).values_list("owner_id", flat=True)
    refilled = 0
    for user in get_user_model().objects.filter(pk__in=list(owner_ids)).iterator():
        if services.coins_refill_daily(user=user, today=today) is not None:
            refilled += 1
    return refilled
