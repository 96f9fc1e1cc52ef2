"""Tournaments' prize pools: entry fees into a pool, prizes out of it.

A pool is an escrow of the kind ``TOURNAMENT_POOL`` (e.g. "tournament:7"),
moved by the escrow services with the tournament's reasons.
"""

from __future__ import annotations

from collections.abc import Iterable

from coins.models import Entry

from .escrow import escrow_payout, escrow_refund, escrow_stake
from .ledger import Kind


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
