"""Friend requests and friendships."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.locking import lock_players
from accounts.selectors import display_name
from common.errors import NotFound
from social import messages, notify
from social.errors import (
    FRIEND_REQUESTS_A_PAIR_PER_DAY,
    FRIEND_REQUESTS_PER_HOUR,
    AlreadyFriends,
    AlreadyRequested,
    Blocked,
    NotFriends,
    TooManyFriendRequests,
    Yourself,
)
from social.models import FriendRequest, FriendRequestSent, Friendship
from social.selectors import are_friends, blocked_either_way, blocks, pair


def friend_request_create(*, sender_id: int, receiver_id: int, now=None) -> str:
    """``sender_id`` asks ``receiver_id`` to be friends. Returns "requested",
    or "friends" when the receiver had asked the sender already: then the
    two are friends at once.

    Refused, with nothing changed: ``Yourself``; ``Blocked`` when either has
    blocked the other; ``AlreadyFriends``; ``AlreadyRequested`` when the
    sender's request is waiting already; ``NotFound`` for no such player.
    Locks both players' rows.
    """
    if sender_id == receiver_id:
        raise Yourself("you cannot be your own friend")
    now = now or timezone.now()
    with transaction.atomic():
        lock_players(sender_id, receiver_id)
        _refuse_blocked(sender_id, receiver_id)
        if are_friends(sender_id, receiver_id):
            raise AlreadyFriends("you are friends already")
        if FriendRequest.objects.filter(
            sender_id=sender_id, receiver_id=receiver_id
        ).exists():
            raise AlreadyRequested("your request is waiting for an answer")
        _refuse_too_many(sender_id, receiver_id, now)
        if FriendRequest.objects.filter(
            sender_id=receiver_id, receiver_id=sender_id
        ).delete()[0]:
            _befriend(sender_id, receiver_id, now)
            return "friends"
        FriendRequest.objects.create(
            sender_id=sender_id, receiver_id=receiver_id, created_at=now
        )
        FriendRequestSent.objects.create(
            sender_id=sender_id, receiver_id=receiver_id, created_at=now
        )
        transaction.on_commit(lambda: _tell_of_request(sender_id, receiver_id))
    return "requested"


def friend_request_accept(*, receiver_id: int, sender_id: int, now=None) -> None:
    """The receiver accepts ``sender_id``'s request: they are friends.
    ``NotFound`` when there is no such request to the receiver (someone
    else's request included); ``Blocked`` should a block stand between
    them. Locks both players' rows."""
    now = now or timezone.now()
    with transaction.atomic():
        lock_players(sender_id, receiver_id)
        request = FriendRequest.objects.filter(
            sender_id=sender_id, receiver_id=receiver_id
        ).first()
        if request is None:
            raise NotFound("there is no friend request from this player")
        _refuse_blocked(receiver_id, sender_id)
        request.delete()
        _befriend(sender_id, receiver_id, now)


def friend_request_decline(*, receiver_id: int, sender_id: int) -> None:
    """The receiver says no; the sender may ask again later. ``NotFound``
    when there is no such request."""
    _request_delete(sender_id=sender_id, receiver_id=receiver_id)


def friend_request_cancel(*, sender_id: int, receiver_id: int) -> None:
    """The sender takes the request back. ``NotFound`` when there is none."""
    _request_delete(sender_id=sender_id, receiver_id=receiver_id)


def friendship_delete(*, user_id: int, friend_id: int) -> None:
    """Either friend ends the friendship. ``NotFriends`` when they are not."""
    low, high = pair(user_id, friend_id)
    with transaction.atomic():
        if not Friendship.objects.filter(low_id=low, high_id=high).delete()[0]:
            raise NotFriends("you are not friends")
        transaction.on_commit(lambda: notify.friends_changed(user_id, friend_id))


def _request_delete(*, sender_id: int, receiver_id: int) -> None:
    with transaction.atomic():
        if not FriendRequest.objects.filter(
            sender_id=sender_id, receiver_id=receiver_id
        ).delete()[0]:
            raise NotFound("there is no such friend request")
        transaction.on_commit(lambda: notify.friends_changed(sender_id, receiver_id))


def _refuse_blocked(user_id: int, other_id: int) -> None:
    if blocked_either_way(user_id, other_id):
        if blocks(user_id, other_id):
            raise Blocked("you have blocked this player: lift the block first")
        raise Blocked("this player takes no requests or invitations from you")


def _refuse_too_many(sender_id: int, receiver_id: int, now) -> None:
    day, hour = now - timedelta(days=1), now - timedelta(hours=1)
    made = FriendRequestSent.objects.filter(sender_id=sender_id)
    made.filter(created_at__lte=day).delete()
    if made.filter(created_at__gt=hour).count() >= FRIEND_REQUESTS_PER_HOUR:
        raise TooManyFriendRequests(
            f"at most {FRIEND_REQUESTS_PER_HOUR} friend requests an hour"
        )
    to_them = made.filter(receiver_id=receiver_id, created_at__gt=day).count()
    if to_them >= FRIEND_REQUESTS_A_PAIR_PER_DAY:
        raise TooManyFriendRequests(
            f"at most {FRIEND_REQUESTS_A_PAIR_PER_DAY} friend requests "
            "to one player a day"
        )


def _befriend(one_id: int, other_id: int, now) -> None:
    low, high = pair(one_id, other_id)
    Friendship.objects.get_or_create(
        low_id=low, high_id=high, defaults={"created_at": now}
    )
    # A request the other way, should one be left, is answered too.
    FriendRequest.objects.filter(
        Q(sender_id=one_id, receiver_id=other_id)
        | Q(sender_id=other_id, receiver_id=one_id)
    ).delete()
    transaction.on_commit(lambda: notify.friends_changed(one_id, other_id))


def _tell_of_request(sender_id: int, receiver_id: int) -> None:
    if notify.silenced(receiver_id, sender_id):
        notify.friends_changed(sender_id, receiver_id)
        return
    sender = get_user_model().objects.select_related("profile").get(pk=sender_id)
    notify.send(
        [
            (
                receiver_id,
                messages.FriendRequest(
                    {"username": sender.get_username(), "name": display_name(sender)}
                ),
            ),
            (sender_id, notify.FRIENDS),
            (receiver_id, notify.FRIENDS),
        ]
    )
