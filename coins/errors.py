"""Typed refusals of the coin services."""

from __future__ import annotations


class CoinError(Exception):
    """A coin movement was refused; nothing changed."""


class InsufficientCoins(CoinError):
    """The account to debit holds fewer coins than the amount."""

    def __init__(self, account, amount: int, balance: int):
        self.account = account
        self.amount = amount
        self.balance = balance
        super().__init__(
            f"{account} holds {balance} coins, {amount} were asked for",
        )


class InvalidAmount(CoinError, ValueError):
    """An amount that is not a whole, positive number of coins."""


class KeyReused(CoinError):
    """An idempotency key already names a different movement."""


class EscrowMismatch(CoinError):
    """Shares or refunds that do not account for the escrow's coins exactly."""
