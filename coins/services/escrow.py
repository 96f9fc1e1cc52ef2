"""Stakes held in escrow while a game is played, and their settlement.

Players' stakes go from their wallets into the table's escrow (e.g.
"game:12"); when the game ends the whole escrow is paid out, or every stake
is given back. A tournament's prize pool is an escrow of another kind
(``coins.services.pools``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Sum

from coins.errors import EscrowMismatch, InvalidAmount, KeyReused, LedgerRefusal
from coins.models import Account, Entry

from .ledger import (
    Kind,
    Reason,
    _entries_by_keys,
    _lock,
    _move,
    _movement,
    _replayed,
    ledger_transfer,
)
from .wallet import wallet_of

# Reasons of the movements into and out of an escrow or a pool, by its kind.
_INTO: dict[str, Entry.Reason] = {
    Kind.TABLE_ESCROW: Reason.STAKE,
    Kind.TOURNAMENT_POOL: Reason.ENTRY_FEE,
}
_OUT_OF: dict[str, Entry.Reason] = {
    Kind.TABLE_ESCROW: Reason.PAYOUT,
    Kind.TOURNAMENT_POOL: Reason.PRIZE,
}
_BACK = (Reason.REFUND, Reason.ANNUL)


def escrow_account(ref: str, kind: str = Kind.TABLE_ESCROW) -> Account:
    """The escrow of a table (or, with ``kind``, the pool of a tournament)
    named by ``ref``, e.g. "game:12"; created empty on first need."""
    if kind not in _INTO:
        raise ValueError(f"{kind!r} is not an escrow or pool kind")
    if not ref:
        raise ValueError("an escrow needs a reference")
    account, _ = Account.objects.get_or_create(kind=kind, ref=ref)
    return account


def escrow_stake(
    *, user, ref: str, amount: int, key: str, kind: str = Kind.TABLE_ESCROW
) -> Entry:
    """Move a player's stake from their wallet into the escrow ``ref``.

    Raises ``InsufficientCoins`` (nothing changes) when the wallet holds less.
    """
    escrow = escrow_account(ref, kind)
    return ledger_transfer(
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
        # An escrow pays out to wallets, which have owners.
        return sorted([*earlier.values(), *made], key=lambda e: e.credit.owner_id or 0)

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
