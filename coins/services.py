"""Every movement of Domino Coin.

Pages, the API, the admin, tasks and other apps move coins only through these
functions; none of them writes ``Account.balance`` or ``Entry`` directly.

Locking contract. A service runs in one transaction (a savepoint when the
caller already has one) and locks every Account row it will change with
``SELECT ... FOR UPDATE``, all at once and in ascending primary-key order, so
two services never wait on each other in a cycle. A caller that makes several
calls in one transaction of its own holds the locks of the earlier calls until
it commits; it should make them in a consistent order too (for a table: the
table row first, then the coin calls).

Conflicts. A movement the database aborts for a serialization failure or a
deadlock (SQLSTATE 40001, 40P01) is tried again, a bounded number of times
(``RETRIES_ON_CONFLICT``); each try is one atomic block, so a failed try
leaves nothing behind.

Idempotency. Every movement carries a key, unique in the ledger. A service
looks the key up once it holds its locks: a movement that already happened is
returned as it is and nothing changes. A duplicate racing its twin (the twin
committed between the look-up and the insert) hits the unique constraint and
is answered the same way. The same key for a *different* movement (other
accounts, amount or reason) is a bug in the caller and raises ``KeyReused``.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Iterable
from datetime import date
from typing import TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F, Sum

from coins.errors import (
    EscrowMismatch,
    InsufficientCoins,
    InvalidAmount,
    KeyReused,
    LedgerRefusal,
)
from coins.models import Account, Entry

Kind = Account.Kind
Reason = Entry.Reason

T = TypeVar("T")

# Reasons of the movements into and out of an escrow or a pool, by its kind.
_INTO = {Kind.TABLE_ESCROW: Reason.STAKE, Kind.TOURNAMENT_POOL: Reason.ENTRY_FEE}
_OUT_OF = {Kind.TABLE_ESCROW: Reason.PAYOUT, Kind.TOURNAMENT_POOL: Reason.PRIZE}
_BACK = (Reason.REFUND, Reason.ANNUL)


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


def escrow_account(ref: str, kind: str = Kind.TABLE_ESCROW) -> Account:
    """The escrow of a table (or, with ``kind``, the pool of a tournament)
    named by ``ref``, e.g. "game:12"; created empty on first need."""
    if kind not in _INTO:
        raise ValueError(f"{kind!r} is not an escrow or pool kind")
    if not ref:
        raise ValueError("an escrow needs a reference")
    account, _ = Account.objects.get_or_create(kind=kind, ref=ref)
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


# The primitive


def transfer(
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
    coins; either way nothing changes. Locks both accounts (see the module's
    contract). Returns the entry; its ``debit`` and ``credit`` are the
    accounts as they were right after it.
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


# Grants from the mint


def grant(
    *, user, amount: int, reason: str = Reason.GRANT, key: str, memo="", by=None
) -> Entry:
    """Bring ``amount`` new coins into play, from the mint to the user's
    wallet."""
    return transfer(
        debit=mint_account(),
        credit=wallet_of(user),
        amount=amount,
        reason=reason,
        key=key,
        memo=memo,
        by=by,
    )


def coins_welcome(user) -> Entry:
    """The starting coins of a new player, granted once (key "welcome:<id>").
    ``wallet_of`` calls it when it creates the wallet."""
    return _welcome(wallet_of(user))


def _welcome(wallet: Account) -> Entry:
    return transfer(
        debit=mint_account(),
        credit=wallet,
        amount=welcome_coins(),
        reason=Reason.GRANT,
        key=f"welcome:{wallet.owner_id}",
    )


def daily_refill(*, user, today: date) -> Entry | None:
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


def admin_adjust(
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
    return transfer(
        debit=debit,
        credit=credit,
        amount=abs(amount),
        reason=reason,
        key=key or f"admin:{uuid.uuid4()}",
        memo=reason_text,
        by=by,
    )


# Escrows and pools


def escrow_stake(
    *, user, ref: str, amount: int, key: str, kind: str = Kind.TABLE_ESCROW
) -> Entry:
    """Move a player's stake from their wallet into the escrow ``ref``.

    Raises ``InsufficientCoins`` (nothing changes) when the wallet holds less.
    """
    escrow = escrow_account(ref, kind)
    return transfer(
        debit=wallet_of(user),
        credit=escrow,
        amount=amount,
        reason=_INTO[kind],
        key=key,
        ref=ref,
    )


def escrow_payout(
    *,
    ref: str,
    shares: dict[int, int],
    key_prefix: str,
    kind: str = Kind.TABLE_ESCROW,
) -> list[Entry]:
    """Pay the whole escrow ``ref`` out: ``shares`` maps user ids to coins.

    The shares must add up to the escrow's balance exactly, or
    ``EscrowMismatch`` is raised and nothing changes. One entry per user with a
    share above zero, keyed "<key_prefix>:<user id>"; all are written or none.
    """
    for user_id, amount in shares.items():
        if type(amount) is not int or amount < 0:
            raise InvalidAmount(f"share {amount!r} of user {user_id}")
    paid = {user_id: shares[user_id] for user_id in sorted(shares) if shares[user_id]}
    escrow = escrow_account(ref, kind)
    wallets = _wallets_of_ids(paid)
    keys = {user_id: f"{key_prefix}:{user_id}" for user_id in paid}
    expected = {
        keys[user_id]: (escrow.pk, wallets[user_id].pk, amount, _OUT_OF[kind])
        for user_id, amount in paid.items()
    }

    def pay() -> list[Entry]:
        with transaction.atomic():
            locked = _lock([escrow.pk, *(w.pk for w in wallets.values())])
            earlier = _entries_by_keys(keys.values())
            if earlier:
                if set(earlier) != set(keys.values()):
                    raise KeyReused(f"{key_prefix!r} paid other shares of {ref}")
                return [_replayed(earlier[k], expected[k]) for k in keys.values()]
            source = locked[escrow.pk]
            if sum(paid.values()) != source.balance:
                raise EscrowMismatch(
                    f"shares add up to {sum(paid.values())}, "
                    f"{ref} holds {source.balance}"
                )
            return [
                _move(
                    source,
                    locked[wallets[user_id].pk],
                    amount,
                    reason=_OUT_OF[kind],
                    key=keys[user_id],
                    ref=ref,
                )
                for user_id, amount in paid.items()
            ]

    return _movement(pay)


def escrow_refund(
    *,
    ref: str,
    key_prefix: str,
    user_ids: Iterable[int] | None = None,
    kind: str = Kind.TABLE_ESCROW,
    reason: str = Reason.REFUND,
) -> list[Entry]:
    """Give every staker (or only ``user_ids``) back exactly what they put into
    the escrow ``ref`` and have not had back yet, as the ledger records it.

    One entry per staker, keyed "<key_prefix>:<user id>"; a staker whose key is
    already in the ledger is not refunded again (use a new prefix for a new
    refund). ``reason`` may be ``Reason.ANNUL`` for an annulled game. Raises
    ``EscrowMismatch`` when the escrow does not hold exactly the stakes not
    yet returned (it was paid out); nothing changes then.
    """
    if reason not in _BACK:
        raise ValueError(f"a refund is recorded as one of {_BACK}, not {reason!r}")
    escrow = escrow_account(ref, kind)
    wanted = None if user_ids is None else set(user_ids)

    def refund() -> list[Entry] | None:
        stakers = _stakers(escrow, kind)
        with transaction.atomic():
            locked = _lock([escrow.pk, *stakers])
            if _stakers(escrow, kind) != stakers:
                # A stake arrived between the look and the lock: look again.
                return None
            owed = _owed(escrow, kind)
            source = locked[escrow.pk]
            # The escrow holds exactly the stakes not yet returned, unless it
            # was paid out: then there is nothing to refund from.
            if sum(owed.values()) != source.balance:
                raise EscrowMismatch(
                    f"{ref} holds {source.balance}, "
                    f"its stakers are owed {sum(owed.values())}"
                )
            if wanted is not None:
                owed = {w: net for w, net in owed.items() if w.owner_id in wanted}
            keys = {wallet: f"{key_prefix}:{wallet.owner_id}" for wallet in owed}
            earlier = _entries_by_keys(keys.values())
            due = {w: net for w, net in owed.items() if keys[w] not in earlier}
            due = {w: net for w, net in due.items() if net > 0}
            made = [
                _move(
                    source,
                    locked[wallet.pk],
                    net,
                    reason=reason,
                    key=keys[wallet],
                    ref=ref,
                )
                for wallet, net in sorted(due.items(), key=lambda item: item[0].pk)
            ]
        return sorted([*earlier.values(), *made], key=lambda e: e.credit.owner_id)

    # Under a burst of stakes the look-then-lock can miss a few times; back
    # off a little (with jitter, so racing refunds do not keep colliding).
    for attempt in range(20):
        entries = _movement(refund)
        if entries is not None:
            return entries
        time.sleep(random.uniform(0, 0.002 * (attempt + 1)))
    raise LedgerRefusal(f"stakes kept arriving at {ref} during its refund")


def escrow_balance(ref: str, kind: str = Kind.TABLE_ESCROW) -> int:
    account = Account.objects.filter(kind=kind, ref=ref).first()
    return account.balance if account else 0


# The same for tournaments: entry fees into a prize pool, prizes out of it.


def pool_enter(*, user, ref: str, amount: int, key: str) -> Entry:
    """Pay a tournament's entry fee into its prize pool ``ref``."""
    return escrow_stake(
        user=user, ref=ref, amount=amount, key=key, kind=Kind.TOURNAMENT_POOL
    )


def pool_payout(*, ref: str, shares: dict[int, int], key_prefix: str) -> list[Entry]:
    """Pay a tournament's whole prize pool out as prizes."""
    return escrow_payout(
        ref=ref, shares=shares, key_prefix=key_prefix, kind=Kind.TOURNAMENT_POOL
    )


def pool_refund(
    *, ref: str, key_prefix: str, user_ids: Iterable[int] | None = None
) -> list[Entry]:
    """Give entry fees back (a cancelled tournament, a withdrawn player)."""
    return escrow_refund(
        ref=ref, key_prefix=key_prefix, user_ids=user_ids, kind=Kind.TOURNAMENT_POOL
    )


# Checks of the books


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


# Helpers


def _check_amount(amount) -> None:
    # bool is an int; True coins is a bug, not one coin.
    if type(amount) is not int or amount <= 0:
        raise InvalidAmount(f"cannot move {amount!r} coins")


def _check_key(key) -> None:
    if not isinstance(key, str) or not key:
        raise ValueError("a movement needs an idempotency key")
    if len(key) > Entry._meta.get_field("idempotency_key").max_length:
        raise ValueError(f"idempotency key too long: {key!r}")


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


def _wallets_of_ids(user_ids: Iterable[int]) -> dict[int, Account]:
    user_ids = set(user_ids)
    users = get_user_model().objects.in_bulk(user_ids)
    missing = user_ids - set(users)
    if missing:
        raise LedgerRefusal(f"no users {sorted(missing)}")
    return {user_id: wallet_of(user) for user_id, user in users.items()}


def _stakers(escrow: Account, kind: str) -> set[int]:
    """Primary keys of the wallets that paid into the escrow."""
    return set(
        Entry.objects.filter(credit=escrow, reason=_INTO[kind]).values_list(
            "debit_id", flat=True
        )
    )


def _owed(escrow: Account, kind: str) -> dict[Account, int]:
    """What each staker's wallet put in minus what it has had back."""
    put_in = (
        Entry.objects.filter(credit=escrow, reason=_INTO[kind])
        .values_list("debit_id")
        .annotate(total=Sum("amount"))
    )
    had_back = (
        Entry.objects.filter(debit=escrow, reason__in=_BACK)
        .values_list("credit_id")
        .annotate(total=Sum("amount"))
    )
    net: dict[int, int] = {}
    for wallet_id, total in put_in:
        net[wallet_id] = net.get(wallet_id, 0) + total
    for wallet_id, total in had_back:
        net[wallet_id] = net.get(wallet_id, 0) - total
    wallets = Account.objects.in_bulk(net)
    return {wallets[wallet_id]: amount for wallet_id, amount in net.items()}
