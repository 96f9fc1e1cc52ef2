"""Writes of what players decide about each other."""

from __future__ import annotations

from django.utils import timezone

from common.errors import NotAllowed

from .models import Block


def block_create(*, blocker_id: int, blocked_id: int, now=None) -> Block:
    """``blocker_id`` blocks ``blocked_id``; blocking twice keeps the first.

    Raises ``NotAllowed`` for blocking oneself.
    """
    if blocker_id == blocked_id:
        raise NotAllowed("you cannot block yourself")
    block, _ = Block.objects.get_or_create(
        blocker_id=blocker_id,
        blocked_id=blocked_id,
        defaults={"created_at": now or timezone.now()},
    )
    return block


def block_delete(*, blocker_id: int, blocked_id: int) -> None:
    """Lift a block; lifting one that is not there does nothing."""
    Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).delete()
