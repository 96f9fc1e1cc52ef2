"""Blocking a player, and lifting a block."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.locking import lock_players
from social import messages, notify
from social.errors import Yourself
from social.models import Block, FriendRequest, Friendship, Invitation
from social.selectors import pair


def block_create(*, blocker_id: int, blocked_id: int, now=None) -> Block:
    """``blocker_id`` blocks ``blocked_id``; blocking twice keeps the first.

    The two stop being friends, their friend requests either way go, and
    the invitations either way still pending are withdrawn. Raises
    ``Yourself`` (a ``NotAllowed``) for blocking oneself. Locks both
    players' rows (``locking``).
    """
    if blocker_id == blocked_id:
        raise Yourself("you cannot block yourself")
    now = now or timezone.now()
    with transaction.atomic():
        lock_players(blocker_id, blocked_id)
        block, _ = Block.objects.get_or_create(
            blocker_id=blocker_id,
            blocked_id=blocked_id,
            defaults={"created_at": now},
        )
        low, high = pair(blocker_id, blocked_id)
        Friendship.objects.filter(low_id=low, high_id=high).delete()
        either_way = Q(sender_id=blocker_id, receiver_id=blocked_id) | Q(
            sender_id=blocked_id, receiver_id=blocker_id
        )
        FriendRequest.objects.filter(either_way).delete()
        pending = Invitation.objects.filter(
            Q(inviter_id=blocker_id, invitee_id=blocked_id)
            | Q(inviter_id=blocked_id, invitee_id=blocker_id),
            status=Invitation.Status.PENDING,
        )
        withdrawn = list(pending.values_list("pk", "invitee_id"))
        pending.update(status=Invitation.Status.WITHDRAWN, answered_at=now)
        transaction.on_commit(
            lambda: notify.send(
                [(blocker_id, notify.FRIENDS), (blocked_id, notify.FRIENDS)]
                + [(invitee, messages.InvitationOver(pk)) for pk, invitee in withdrawn]
            )
        )
    return block


def block_delete(*, blocker_id: int, blocked_id: int) -> None:
    """Lift a block; lifting one that is not there does nothing. They are
    not friends again: either may ask."""
    if Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).delete()[0]:
        transaction.on_commit(lambda: notify.friends_changed(blocker_id))
