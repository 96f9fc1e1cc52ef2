"""The one primitive every coin movement is made of, and the machinery under it.

``ledger_transfer`` moves coins between two accounts. The helpers below it are
what the other services build their movements from: they lock accounts in order,
write an entry with both balances, look idempotency keys up and try a
movement again after a conflict, as the package's contract (``coins.services``)
describes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from typing import TypeVar

from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F

from coins.errors import InsufficientCoins, InvalidAmount, KeyReused, LedgerRefusal
from coins.models import Account, Entry

Kind = Account.Kind
Reason = Entry.Reason

T = TypeVar("T")


def ledger_transfer(
    *,
    debit: Account,
    credit: Account,
    amount: int,
    reason: str,
    key: str,
    memo: str = "",
    ref: str = "",
    by=None,
) -> Entry:
    """Move ``amount`` coins from ``debit`` to ``credit`` and record it.

    Raises ``InvalidAmount`` for anything but a positive whole number and
    ``InsufficientCoins`` when ``debit`` (other than the mint) holds fewer
    coins; either way nothing changes. Locks both accounts (see the locking
    contract of ``coins.services``). Returns the entry; its ``debit`` and
    ``credit`` are the accounts as they were right after it.
    """
    _check_amount(amount)
    _check_key(key)
    if debit.pk == credit.pk:
        raise LedgerRefusal("an entry moves coins between two different accounts")
    expected = (debit.pk, credit.pk, amount, reason)
    earlier = _entry_by_key(key)
    if earlier is not None:
        return _replayed(earlier, expected)

    def move() -> Entry:
        with transaction.atomic():
            locked = _lock([debit.pk, credit.pk])
            earlier = _entry_by_key(key)
            if earlier is not None:
                return _replayed(earlier, expected)
            return _move(
                locked[debit.pk],
                locked[credit.pk],
                amount,
                reason=reason,
                key=key,
                memo=memo,
                ref=ref,
                by=by,
            )

    return _movement(move)


# Checks of a movement's arguments


def _check_amount(amount) -> None:
    # bool is an int; True coins is a bug, not one coin.
    if type(amount) is not int or amount <= 0:
        raise InvalidAmount(f"cannot move {amount!r} coins")


def _check_key(key) -> None:
    if not isinstance(key, str) or not key:
        raise ValueError("a movement needs an idempotency key")
    longest = Entry._meta.get_field("idempotency_key").max_length
    assert longest is not None  # a CharField's
    if len(key) > longest:
        raise ValueError(f"idempotency key too long: {key!r}")


# Locks and writes


def _lock(pks: Iterable[int]) -> dict[int, Account]:
    """Lock the accounts, in ascending primary-key order, and return them as
    they are now."""
    ordered = sorted(set(pks))
    locked = {
        account.pk: account
        for account in Account.objects.select_for_update()
        .filter(pk__in=ordered)
        .order_by("pk")
    }
    if len(locked) != len(ordered):
        raise LedgerRefusal("an account to move coins from or to does not exist")
    return locked


def _move(
    debit: Account,
    credit: Account,
    amount: int,
    *,
    reason: str,
    key: str,
    memo: str = "",
    ref: str = "",
    by=None,
) -> Entry:
    """Write one entry and both balances. The caller holds both locks and
    has checked the key."""
    if reason not in Reason.values:
        raise ValueError(f"unknown reason {reason!r}")
    if debit.kind != Kind.GRANTS and debit.balance < amount:
        raise InsufficientCoins(debit, amount, debit.balance)
    debit.balance -= amount
    credit.balance += amount
    # The entry first: a duplicate key stops here, before any balance moves.
    entry = Entry.objects.create(
        debit=debit,
        credit=credit,
        amount=amount,
        reason=reason,
        memo=memo,
        ref=ref,
        idempotency_key=key,
        debit_balance=debit.balance,
        credit_balance=credit.balance,
        created_by=by,
    )
    # Relative updates: should a row ever escape the lock, the database's
    # constraint still refuses a negative balance.
    Account.objects.filter(pk=debit.pk).update(balance=F("balance") - amount)
    Account.objects.filter(pk=credit.pk).update(balance=F("balance") + amount)
    return entry


# Idempotency keys


def _entry_by_key(key: str) -> Entry | None:
    return (
        Entry.objects.select_related("debit", "credit")
        .filter(idempotency_key=key)
        .first()
    )


def _entries_by_keys(keys: Iterable[str]) -> dict[str, Entry]:
    entries = Entry.objects.select_related("debit", "credit").filter(
        idempotency_key__in=list(keys)
    )
    return {entry.idempotency_key: entry for entry in entries}


def _replayed(entry: Entry, expected: tuple[int, int, int, str]) -> Entry:
    """The entry an idempotency key already names, if it is the same
    movement."""
    found = (entry.debit_id, entry.credit_id, entry.amount, entry.reason)
    if found != expected:
        raise KeyReused(
            f"key {entry.idempotency_key!r} names entry {entry.pk} "
            f"{found}, not {expected}"
        )
    return entry


# Conflicts

# A movement the database gave up on for a conflict with another
# transaction (a serialization failure, a deadlock) is tried again, this
# many times at most; its atomic block rolled back whole, so nothing of the
# failed try is left.
RETRIES_ON_CONFLICT = 3
_CONFLICT_STATES = {"40001", "40P01"}


def _movement(operation: Callable[[], T]) -> T:
    """Run ``operation``, one atomic movement. If a concurrent twin inserted
    one of its keys first (a unique violation), run it again: it finds the
    twin's entries. If the database aborted it for a conflict, try again a
    few times, after a short random pause."""
    for attempt in range(RETRIES_ON_CONFLICT + 1):
        try:
            try:
                return operation()
            except IntegrityError:
                return operation()
        except OperationalError as error:
            state = getattr(error.__cause__, "sqlstate", None)
            if state not in _CONFLICT_STATES or attempt == RETRIES_ON_CONFLICT:
                raise
            time.sleep(random.uniform(0, 0.005 * (attempt + 1)))
    raise AssertionError("unreachable")
