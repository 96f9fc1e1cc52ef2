"""Rating windows and groups: the arithmetic of quick play, as pure functions.

A waiting player accepts opponents within a rating *window* that starts at
``WINDOW_START`` and widens by ``WIDEN_PER_SECOND`` for every second waited, up
to ``WINDOW_MAX``. Two players fit when their ratings differ by no more than
the narrower of their two windows, so nobody is seated against a player
further away than they have come to accept. A group fits when every two of
its members fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratings.elo import BOT_RATINGS

WINDOW_START = 100
WIDEN_PER_SECOND = 10
WINDOW_MAX = 800

# A player who has waited this long in a 4-player pool without a stake is
# seated at once, with whoever waits there and fits, and practice bots in
# the other seats (``bot_group``).
BOT_WAIT_SECONDS = 20

# Candidates tried for one player's group before leaving them to the next
# tick, so that a tick stays quick however the ratings fall in a big pool.
SEARCH_BUDGET = 10_000


def window(waited: float) -> int:
    """The rating difference a player accepts after ``waited`` seconds."""
    if waited <= 0:
        return WINDOW_START
    return min(WINDOW_MAX, WINDOW_START + int(WIDEN_PER_SECOND * waited))


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player in a pool as the grouping sees them: an opaque ``key``, the
    rating they joined with, and their window now."""

    key: int
    rating: int
    window: int


def fits(a: Waiting, b: Waiting) -> bool:
    return abs(a.rating - b.rating) <= min(a.window, b.window)


def form_groups(waiting: Sequence[Waiting], size: int) -> list[tuple[Waiting, ...]]:
    """Groups of ``size`` players out of ``waiting`` (oldest first), in which
    every two members fit.

    Oldest first: the longest-waiting player not yet in a group gets one if
    any exists, made of the earliest-joined partners that fit with them and
    with each other; then the next. A player without a group waits for the
    next tick, with a wider window. Each player is in at most one group.
    """
    if size < 2:
        raise ValueError("a group has at least two players")
    free = list(waiting)
    groups: list[tuple[Waiting, ...]] = []
    first = 0
    while len(free) - first >= size:
        group = _group_with(free[first], free[first + 1 :], size)
        if group is None:
            # No group has this player now, and none will appear in this
            # tick: the others only become fewer.
            first += 1
            continue
        groups.append(group)
        taken = {member.key for member in group}
        free = [w for w in free if w.key not in taken]
    return groups


def _group_with(
    anchor: Waiting, others: Sequence[Waiting], size: int
) -> tuple[Waiting, ...] | None:
    """The first group (in join order) of ``anchor`` and ``size - 1`` of
    ``others``, found depth first, or None."""
    candidates = [w for w in others if fits(anchor, w)]
    budget = SEARCH_BUDGET

    def extend(group: tuple[Waiting, ...], start: int) -> tuple[Waiting, ...] | None:
        nonlocal budget
        if len(group) == size:
            return group
        for n in range(start, len(candidates) - (size - len(group)) + 1):
            budget -= 1
            if budget < 0:
                return None
            candidate = candidates[n]
            if all(fits(candidate, member) for member in group[1:]):
                found = extend((*group, candidate), n + 1)
                if found is not None:
                    return found
        return None

    return extend((anchor,), 0)


def bot_group(
    anchor: Waiting, others: Sequence[Waiting], people: int
) -> tuple[Waiting, ...]:
    """``anchor`` (whose wait for people is over) and up to ``people - 1``
    of ``others`` (in join order) who fit with them and with each other,
    taken in join order: the people of a table whose other seats bots fill."""
    group = [anchor]
    for candidate in others:
        if len(group) == people:
            break
        if all(fits(candidate, member) for member in group):
            group.append(candidate)
    return tuple(group)


def bot_level(ratings: Sequence[int]) -> str:
    """The practice bot's level whose fixed rating is nearest the people's
    mean rating (the weaker level on a tie)."""
    mean = sum(ratings) / len(ratings)
    return min(
        BOT_RATINGS,
        key=lambda level: (abs(BOT_RATINGS[level] - mean), BOT_RATINGS[level]),
    )
