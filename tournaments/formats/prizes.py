"""Splitting a coin pool over final places.

``percents[i]`` is the share of place ``i + 1``; the list must add up to 100
and must not increase (a better place never pays less). Players tied on a
place share equally the percents of all the places they cover: two players
tied for first with ``(50, 30, 20)`` get 40 % each.

Coins are whole. Each player first gets the floor of their exact share; the
coins left over (fewer than the number of paid players) then go one each to
the paid players in finishing order, best first, tied players in the order
given. So the total paid is exactly the pool, better places never get less,
and tied players differ by at most one coin.

When fewer players finish than there are paid places, the percents of the
places nobody reached are spread over the others in proportion to their own
percents, so the whole pool is still paid out.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

from tournaments.formats._places import place_groups

Player = Hashable
P = TypeVar("P", bound=Hashable)


def _fraction(value) -> Fraction:
    # str() keeps decimal floats such as 33.3 exact.
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def split_prizes(
    pool: int, percents: Sequence, final_places: Mapping[P, int]
) -> dict[P, int]:
    """Coins for every player in ``final_places`` (player -> place, 1 best).

    Players outside the paid places get 0; with no players nothing is paid.
    Places may be competition-ranked (1, 1, 3) or dense (1, 1, 2); only their
    order matters.
    """
    if pool < 0 or int(pool) != pool:
        raise ValueError("the pool must be a whole, non-negative number of coins")
    pool = int(pool)
    shares = [_fraction(p) for p in percents]
    if any(s < 0 for s in shares) or sum(shares) != 100:
        raise ValueError("percents must be non-negative and add up to 100")
    if any(a < b for a, b in zip(shares, shares[1:], strict=False)):
        raise ValueError("percents must not increase with the place")

    groups = place_groups(final_places.items())
    covered = shares[: len(final_places)]
    total = sum(covered, Fraction(0))
    payout = dict.fromkeys(final_places, 0)
    if pool == 0 or not final_places:
        return payout
    if total == 0:  # pragma: no cover - percents add up to 100
        raise ValueError("nobody reached a paid place")

    exact: list[tuple[P, Fraction]] = []
    for first, players in groups:
        group_share = sum(shares[first : first + len(players)], Fraction(0))
        each = pool * group_share / total / len(players)
        exact += [(player, each) for player in players]

    for player, amount in exact:
        payout[player] = int(amount)  # floor: amounts are non-negative
    left = pool - sum(payout.values())
    for player, amount in exact:
        if left == 0:
            break
        if amount > 0:
            payout[player] += 1
            left -= 1
    assert left == 0
    return payout
