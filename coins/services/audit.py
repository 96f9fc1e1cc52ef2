"""Checks of the books, read-only.

While the books are sound all balances add up to 0 and every balance equals
what its entries add up to.
"""

from __future__ import annotations

from django.db.models import Sum

from coins.models import Account, Entry


def ledger_total() -> int:
    """The sum of all balances, the mint's included: 0 while the books are
    sound, since the mint is minus everything it granted."""
    return Account.objects.aggregate(total=Sum("balance"))["total"] or 0


def ledger_mismatches() -> list[tuple[Account, int]]:
    """Accounts whose balance differs from what their entries add up to, each
    with that sum. Empty while the books are sound."""
    credits = dict(
        Entry.objects.values("credit")
        .annotate(s=Sum("amount"))
        .values_list("credit", "s")
    )
    debits = dict(
        Entry.objects.values("debit")
        .annotate(s=Sum("amount"))
        .values_list("debit", "s")
    )
    wrong = []
    for account in Account.objects.order_by("pk"):
        computed = credits.get(account.pk, 0) - debits.get(account.pk, 0)
        if computed != account.balance:
            wrong.append((account, computed))
    return wrong
