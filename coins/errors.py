"""Typed refusals of the coin services (``common.errors`` is their base)."""

from __future__ import annotations

from common.errors import ApplicationError


class InsufficientCoins(ApplicationError):
    """The account to debit holds fewer coins than the amount."""

    code = "few_coins"

    def __init__(self, account, amount: int, balance: int):
        self.account = account
        self.amount = amount
        self.balance = balance
        super().__init__(f"{account} holds {balance} coins, {amount} were asked for")


class InvalidAmount(ApplicationError, ValueError):
    """An amount that is not a whole, positive number of coins."""

    code = "bad_amount"


class KeyReused(ApplicationError):
    """An idempotency key already names a different movement."""

    code = "key_reused"


class EscrowMismatch(ApplicationError):
    """Shares or refunds that do not account for the escrow's coins exactly."""

    code = "escrow_mismatch"


class LedgerRefusal(ApplicationError):
    """Any other movement the ledger refuses (no such account, the same
    account on both sides, stakes that kept arriving during a refund)."""

    code = "ledger_refused"
