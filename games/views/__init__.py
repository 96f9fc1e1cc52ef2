"""Pages of live play: the lobby and tables (lobby.py), the live table and
finished games' replays and records (table.py)."""
