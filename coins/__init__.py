"""Domino Coin: wallets, escrows and prize pools kept in a double-entry ledger.

Domino Coin is a virtual coin for play. It is never money: it cannot be
bought, sold or paid out. Every movement goes through ``coins.services``.
"""
