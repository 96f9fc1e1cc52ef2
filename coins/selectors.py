"""Reads of the Domino Coin ledger."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from django.db import models
from django.db.models import Case, F, Q, QuerySet, Value, When
from django.utils.translation import gettext_lazy as _

from coins.models import Account, Entry

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise, WithAnnotations


class SeenFromWallet(TypedDict):
    """What ``wallet_statement`` adds to each entry."""

    balance_after: int
    change: int
    counterparty: str


def wallet_statement(
    wallet: Account,
) -> QuerySet[WithAnnotations[Entry, SeenFromWallet]]:
    """The wallet's entries, newest first, each seen from the wallet's side:

    ``change`` (coins in, or out as a negative number), ``balance_after`` (the
    wallet's balance right after the entry) and ``counterparty`` (the kind of
    the other account). Which user owns the other account is left out on
    purpose: a statement shows its owner's coins and nobody else's.
    """
    incoming = Q(credit=wallet)
    return (
        Entry.objects.filter(Q(debit=wallet) | incoming)
        .annotate(
            change=Case(
                When(incoming, then=F("amount")),
                default=Value(0) - F("amount"),
                output_field=models.BigIntegerField(),
            ),
            balance_after=Case(
                When(incoming, then=F("credit_balance")),
                default=F("debit_balance"),
                output_field=models.BigIntegerField(),
            ),
            counterparty=Case(
                When(incoming, then=F("debit__kind")),
                default=F("credit__kind"),
                output_field=models.CharField(),
            ),
        )
        .order_by("-created_at", "-id")
    )


# How a player's statement names the other side of an entry: by its kind,
# with the house and the mint both as "house".
_COUNTERPARTY_LABELS: dict[str, StrOrPromise] = {
    Account.Kind.WALLET: _("Player"),
    Account.Kind.TABLE_ESCROW: _("Table"),
    Account.Kind.TOURNAMENT_POOL: _("tournament pool"),
    Account.Kind.HOUSE: _("house"),
    Account.Kind.GRANTS: _("house"),
}


def counterparty_label(kind: str) -> StrOrPromise:
    return _COUNTERPARTY_LABELS[kind]
