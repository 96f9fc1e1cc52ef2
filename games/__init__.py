"""Live play: tables, seats, games and their event records.

The rules engine is the package ``joker``, beside this one; ``games.engine``
holds only the replay command's old address.
"""
