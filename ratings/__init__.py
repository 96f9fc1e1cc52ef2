"""Elo ratings per category, leaderboards and rating history."""
