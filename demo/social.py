"""Demo friends, so that a fresh install's friends page, presence and
invitations have someone to show: Nino is friends with Giorgi and Tamar, and
Levan's friend request waits for Nino's answer."""

from __future__ import annotations

from social import services
from social.models import FriendRequest, Friendship


def create_demo_friends(players: list) -> list[str]:
    """Once: nothing is made when any of the demo players has a friend or a
    request already."""
    by_name = {user.username: user for user in players}
    if len(by_name) < 4:
        return []
    ids = [user.pk for user in players]
    if (
        Friendship.objects.filter(low_id__in=ids).exists()
        or Friendship.objects.filter(high_id__in=ids).exists()
        or FriendRequest.objects.filter(sender_id__in=ids).exists()
    ):
        return []
    nino, giorgi, tamar, levan = (
        by_name[name] for name in ("nino", "giorgi", "tamar", "levan")
    )
    for friend in (giorgi, tamar):
        services.friend_request_create(sender_id=nino.pk, receiver_id=friend.pk)
        services.friend_request_accept(receiver_id=friend.pk, sender_id=nino.pk)
    services.friend_request_create(sender_id=levan.pk, receiver_id=nino.pk)
    return ["friends (nino with giorgi and tamar; levan's request to nino waits)"]
