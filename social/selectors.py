"""Reads of what players decided about each other."""

from __future__ import annotations

from django.db.models import Q

from .models import Block


def blocks(blocker_id: int, blocked_id: int) -> bool:
    """Whether ``blocker_id`` has blocked ``blocked_id``."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocked_either_way(user_id: int, other_id: int) -> bool:
    """Whether either of the two has blocked the other."""
    return Block.objects.filter(
        Q(blocker_id=user_id, blocked_id=other_id)
        | Q(blocker_id=other_id, blocked_id=user_id)
    ).exists()


def blocked_ids(blocker_id: int) -> set[int]:
    """Every player ``blocker_id`` has blocked."""
    return set(
        Block.objects.filter(blocker_id=blocker_id).values_list("blocked_id", flat=True)
    )
