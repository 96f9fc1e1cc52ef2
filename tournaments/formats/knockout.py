"""Seeded single elimination for Japanese Joker.

:func:`bracket` places seeds in the standard order (1 v N, then the halves
mirrored: for eight players 1 v 8, 4 v 5, 2 v 7, 3 v 6), so seed 1 and seed 2
sit in different halves and can only meet in the final, seeds 1-4 only in the
semi-finals, and so on. When the field is not a power of two it is padded to
the next power with byes; the missing seeds are the lowest ones, so the byes
fall to the top seeds. A bye is a pair ``(player, None)``.

:func:`next_round` pairs the winners of neighbouring matches.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence

Player = Hashable
Match = tuple[Player, Player | None]


def seed_order(size: int) -> list[int]:
    """1-based seeds in bracket order for ``size`` (a power of two) slots."""
    if size < 1 or size & (size - 1):
        raise ValueError("bracket size must be a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def bracket(seeded_players: Sequence[Player]) -> list[Match]:
    """First round for players listed best seed first (e.g. by rating)."""
    players = list(seeded_players)
    if len(players) < 2:
        raise ValueError("a knockout needs at least two players")
    if len(set(players)) != len(players):
        raise ValueError("a player is seeded twice")
    size = 1 << (len(players) - 1).bit_length()
    slots = [players[s - 1] if s <= len(players) else None for s in seed_order(size)]
    return [(slots[i], slots[i + 1]) for i in range(0, size, 2)]


def winner_of(match: Match, winners: Collection[Player]) -> Player:
    """The player of ``match`` found in ``winners``; a bye's player advances."""
    a, b = match
    if b is None:
        return a
    found = [p for p in (a, b) if p in winners]
    if len(found) != 1:
        raise ValueError(f"need exactly one winner for {a!r} v {b!r}")
    return found[0]


def next_round(
    previous_pairs: Sequence[Match], winners: Collection[Player]
) -> list[Match]:
    """Pair the winners of matches 1 and 2, 3 and 4, ... of the last round.

    ``winners`` holds the winning players (players with a bye need not be
    listed). Raises ``ValueError`` after the final, which has no next round.
    """
    if len(previous_pairs) < 2 or len(previous_pairs) % 2:
        raise ValueError("the previous round must hold an even number of matches")
    advancing = [winner_of(match, winners) for match in previous_pairs]
    return [(advancing[i], advancing[i + 1]) for i in range(0, len(advancing), 2)]
