"""Grouping of (possibly shared) places, used by points and prize splits."""

from collections.abc import Hashable, Iterable


def place_groups(places: Iterable[tuple[Hashable, int]]) -> list[tuple[int, list]]:
    """Group ``(key, place)`` items by place, best place first.

    Returns ``[(first_position, [keys...]), ...]`` where ``first_position`` is
    the 0-based index of the first finishing position the group covers; a group
    of ``k`` keys covers positions ``first_position .. first_position + k - 1``.
    Only the order of place values matters, so both competition ranking
    (1, 1, 3, 4) and dense ranking (1, 1, 2, 3) describe the same finish. Keys
    keep their input order inside a group.
    """
    by_place: dict[int, list] = {}
    for key, place in places:
        by_place.setdefault(place, []).append(key)
    groups = []
    position = 0
    for place in sorted(by_place):
        keys = by_place[place]
        groups.append((position, keys))
        position += len(keys)
    return groups
