"""Players' wallets, the mint's and the house's accounts, and new coins.

New coins come only from the mint (the ``grants`` account): the welcome coins
of a new wallet, the daily refill, grants, and an operator's adjustments.
"""

from __future__ import annotations

import uuid
from datetime import date

from django.conf import settings
from django.db import transaction

from coins.errors import InvalidAmount
from coins.models import Account, Entry

from .ledger import (
    Kind,
    Reason,
    _entry_by_key,
    _lock,
    _move,
    _movement,
    ledger_transfer,
)


def welcome_coins() -> int:
    """Coins a new player starts with (setting ``PULKA_COINS_WELCOME``)."""
    return getattr(settings, "PULKA_COINS_WELCOME", 1000)


def refill_to() -> int:
    """A wallet below this is topped up to it once a day
    (setting ``PULKA_COINS_REFILL_TO``)."""
    return getattr(settings, "PULKA_COINS_REFILL_TO", 500)


# Accounts


def mint_account() -> Account:
    """The ``grants`` account: every coin in play was granted from it."""
    account, _ = Account.objects.get_or_create(kind=Kind.GRANTS, ref="")
    return account


def house_account() -> Account:
    account, _ = Account.objects.get_or_create(kind=Kind.HOUSE, ref="")
    return account


def wallet_of(user) -> Account:
    """The user's wallet. The first call creates it and grants the welcome
    coins in the same transaction, so a wallet never exists without them."""
    wallet = Account.objects.filter(kind=Kind.WALLET, owner=user).first()
    if wallet is None:
        with transaction.atomic():
            wallet, _ = Account.objects.get_or_create(kind=Kind.WALLET, owner=user)
            _welcome(wallet)
        wallet.refresh_from_db(fields=["balance"])
    return wallet


# Grants from the mint


def coins_grant(
    *, user, amount: int, reason: str = Reason.GRANT, key: str, memo="", by=None
) -> Entry:
    """Bring ``amount`` new coins into play, from the mint to the user's
    wallet."""
    return ledger_transfer(
        debit=mint_account(),
        credit=wallet_of(user),
        amount=amount,
        reason=reason,
        key=key,
        memo=memo,
        by=by,
    )


def _welcome(wallet: Account) -> Entry:
    """The starting coins of a new player, granted once (key "welcome:<id>"),
    by ``wallet_of`` as it creates the wallet."""
    return ledger_transfer(
        debit=mint_account(),
        credit=wallet,
        amount=welcome_coins(),
        reason=Reason.GRANT,
        key=f"welcome:{wallet.owner_id}",
    )


def coins_refill_daily(*, user, today: date) -> Entry | None:
    """Top the wallet up to ``refill_to()`` if it is below, at most once per
    user and day (key "refill:<user id>:<date>").

    Returns the day's refill entry (made now or earlier today), or None when
    the wallet needs none. A wallet at or above the mark takes no lock.
    """
    wallet = wallet_of(user)
    key = f"refill:{user.pk}:{today.isoformat()}"
    target = refill_to()
    earlier = _entry_by_key(key)
    if earlier is not None:
        return earlier
    if wallet.balance >= target:
        return None
    mint = mint_account()

    def refill() -> Entry | None:
        with transaction.atomic():
            locked = _lock([mint.pk, wallet.pk])
            earlier = _entry_by_key(key)
            if earlier is not None:
                return earlier
            balance = locked[wallet.pk].balance
            if balance >= target:
                return None
            return _move(
                locked[mint.pk],
                locked[wallet.pk],
                target - balance,
                reason=Reason.REFILL,
                key=key,
            )

    return _movement(refill)


def coins_adjust(
    *, user, amount: int, reason_text: str, by, key: str | None = None
) -> Entry:
    """An operator grants (``amount`` > 0) or removes (``amount`` < 0) coins.

    Granted coins come from the mint and removed ones go back to it, so the
    coins in play change by ``amount``. The entry records the operator and the
    reason. ``key`` makes a repeated request (a form sent twice) count once;
    without one, every call is a new adjustment.
    """
    if by is None:
        raise ValueError("an adjustment records the operator who made it")
    reason_text = (reason_text or "").strip()
    if not reason_text:
        raise ValueError("an adjustment needs a reason")
    if type(amount) is not int or amount == 0:
        raise InvalidAmount(f"cannot adjust a wallet by {amount!r} coins")
    wallet, mint = wallet_of(user), mint_account()
    if amount > 0:
        debit, credit, reason = mint, wallet, Reason.ADMIN_GRANT
    else:
        debit, credit, reason = wallet, mint, Reason.ADMIN_REMOVE
    return ledger_transfer(
        debit=debit,
        credit=credit,
        amount=abs(amount),
        reason=reason,
        key=key or f"admin:{uuid.uuid4()}",
        memo=reason_text,
        by=by,
    )
