"""The database keeps the books sound even when the services are bypassed."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.db.models import F

from coins import services
from coins.models import Account, Entry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_balance_cannot_go_negative_even_through_the_orm():
    wallet = services.wallet_of(UserFactory())

    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(pk=wallet.pk).update(balance=F("balance") - 1001)

    wallet.refresh_from_db()
    assert wallet.balance == 1000


@pytest.mark.parametrize("kind", ["wallet", "table_escrow", "tournament_pool", "house"])
def test_no_account_but_the_mint_may_be_negative(kind):
    owner = UserFactory() if kind == "wallet" else None
    ref = "game:1" if kind in ("table_escrow", "tournament_pool") else ""

    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(kind=kind, owner=owner, ref=ref, balance=-1)


def test_the_mint_may_be_negative():
    mint = services.mint_account()

    Account.objects.filter(pk=mint.pk).update(balance=-5)


def test_one_wallet_per_user_and_one_mint():
    user = UserFactory()
    services.wallet_of(user)

    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(kind="wallet", owner=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(kind="grants")
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(kind="wallet")  # a wallet needs an owner
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(kind="table_escrow", ref="")  # an escrow needs a ref


def test_entry_amounts_are_positive_and_keys_unique():
    wallet = services.wallet_of(UserFactory())
    mint = services.mint_account()
    fields = {
        "debit": mint,
        "credit": wallet,
        "reason": "grant",
        "debit_balance": 0,
        "credit_balance": 0,
    }

    for amount in (0, -1):
        with pytest.raises(IntegrityError), transaction.atomic():
            Entry.objects.create(amount=amount, idempotency_key=f"k{amount}", **fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(
            amount=1, idempotency_key=f"welcome:{wallet.owner_id}", **fields
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(
            amount=1, idempotency_key="self", **{**fields, "debit": wallet}
        )
