"""Scheduled tournaments: registration, rounds, standings and prizes."""
