"""Elo ratings, leaderboards, Domino Coin wallets and matchmaking."""
