"""Friend requests, friendships and blocks, through the services: every
refusal is clear and changes nothing."""

import pytest
from django.db import IntegrityError

from common.errors import NotFound
from social import selectors, services
from social.errors import (
    AlreadyFriends,
    AlreadyRequested,
    Blocked,
    NotFriends,
    Yourself,
)
from social.models import FriendRequest, Friendship
from tests.factories import UserFactory
from tests.social.helpers import befriend

pytestmark = pytest.mark.django_db


def state():
    """Everything the friend services write, to show a refusal changed
    nothing."""
    return (
        sorted(FriendRequest.objects.values_list("sender_id", "receiver_id")),
        sorted(Friendship.objects.values_list("low_id", "high_id")),
    )


def test_a_request_accepted_makes_friends_both_ways():
    nino, giorgi = UserFactory.create_batch(2)
    result = services.friend_request_create(sender_id=nino.pk, receiver_id=giorgi.pk)
    assert result == "requested"
    assert [r.receiver for r in selectors.requests_sent(nino.pk)] == [giorgi]
    assert [r.sender for r in selectors.requests_received(giorgi.pk)] == [nino]
    assert selectors.relation(nino.pk, giorgi.pk) == "asked"
    assert selectors.relation(giorgi.pk, nino.pk) == "asks"

    services.friend_request_accept(receiver_id=giorgi.pk, sender_id=nino.pk)

    assert selectors.are_friends(nino.pk, giorgi.pk)
    assert selectors.are_friends(giorgi.pk, nino.pk)
    assert selectors.friend_ids(nino.pk) == {giorgi.pk}
    assert selectors.friends(giorgi.pk) == [nino]
    assert selectors.relation(giorgi.pk, nino.pk) == "friend"
    assert not FriendRequest.objects.exists()


def test_asking_someone_who_asked_you_makes_you_friends_at_once():
    nino, giorgi = UserFactory.create_batch(2)
    services.friend_request_create(sender_id=nino.pk, receiver_id=giorgi.pk)
    result = services.friend_request_create(sender_id=giorgi.pk, receiver_id=nino.pk)
    assert result == "friends"
    assert selectors.are_friends(nino.pk, giorgi.pk)
    assert not FriendRequest.objects.exists()


def test_a_declined_or_cancelled_request_is_gone_and_may_be_made_again():
    nino, giorgi = UserFactory.create_batch(2)
    services.friend_request_create(sender_id=nino.pk, receiver_id=giorgi.pk)
    services.friend_request_decline(receiver_id=giorgi.pk, sender_id=nino.pk)
    assert state() == ([], [])
    services.friend_request_create(sender_id=nino.pk, receiver_id=giorgi.pk)
    services.friend_request_cancel(sender_id=nino.pk, receiver_id=giorgi.pk)
    assert state() == ([], [])
    with pytest.raises(NotFound):
        services.friend_request_decline(receiver_id=giorgi.pk, sender_id=nino.pk)


def test_refusals_change_nothing():
    nino, giorgi, tamar = UserFactory.create_batch(3)
    services.friend_request_create(sender_id=nino.pk, receiver_id=giorgi.pk)
    befriend(nino, tamar)
    before = state()
    refusals = [
        (Yourself, lambda: services.friend_request_create(
            sender_id=nino.pk, receiver_id=nino.pk)),
        (AlreadyRequested, lambda: services.friend_request_create(
            sender_id=nino.pk, receiver_id=giorgi.pk)),
        (AlreadyFriends, lambda: services.friend_request_create(
            sender_id=tamar.pk, receiver_id=nino.pk)),
        # Accepting a request made to someone else, or one's own request.
        (NotFound, lambda: services.friend_request_accept(
            receiver_id=tamar.pk, sender_id=nino.pk)),
        (NotFound, lambda: services.friend_request_accept(
            receiver_id=nino.pk, sender_id=giorgi.pk)),
        (NotFound, lambda: services.friend_request_create(
            sender_id=nino.pk, receiver_id=999999)),
        (NotFriends, lambda: services.friendship_delete(
            user_id=giorgi.pk, friend_id=tamar.pk)),
    ]  # fmt: skip
    for error, refused in refusals:
        with pytest.raises(error):
            refused()
        assert state() == before


def test_accepting_twice_is_refused_the_second_time():
    nino, giorgi = UserFactory.create_batch(2)
    services.friend_request_create(sender_id=nino.pk, receiver_id=giorgi.pk)
    services.friend_request_accept(receiver_id=giorgi.pk, sender_id=nino.pk)
    with pytest.raises(NotFound):
        services.friend_request_accept(receiver_id=giorgi.pk, sender_id=nino.pk)
    assert Friendship.objects.count() == 1


def test_either_friend_ends_the_friendship():
    nino, giorgi = UserFactory.create_batch(2)
    befriend(nino, giorgi)
    services.friendship_delete(user_id=giorgi.pk, friend_id=nino.pk)
    assert not selectors.are_friends(nino.pk, giorgi.pk)
    assert selectors.relation(nino.pk, giorgi.pk) == "none"


def test_a_block_ends_the_friendship_and_the_requests_and_refuses_new_ones():
    nino, giorgi, tamar = UserFactory.create_batch(3)
    befriend(nino, giorgi)
    services.friend_request_create(sender_id=tamar.pk, receiver_id=nino.pk)

    services.block_create(blocker_id=nino.pk, blocked_id=giorgi.pk)
    services.block_create(blocker_id=nino.pk, blocked_id=tamar.pk)

    assert state() == ([], [])
    assert selectors.relation(nino.pk, giorgi.pk) == "blocked"
    assert [b.blocked for b in selectors.blocked_players(nino.pk)] == [tamar, giorgi]
    # Either way round: the blocked player cannot ask, nor the blocker.
    for sender, receiver in [(giorgi, nino), (nino, giorgi)]:
        with pytest.raises(Blocked):
            services.friend_request_create(sender_id=sender.pk, receiver_id=receiver.pk)
    assert state() == ([], [])

    services.block_delete(blocker_id=nino.pk, blocked_id=giorgi.pk)
    assert not selectors.are_friends(nino.pk, giorgi.pk)
    assert (
        services.friend_request_create(sender_id=giorgi.pk, receiver_id=nino.pk)
        == "requested"
    )


def test_a_request_cannot_be_accepted_across_a_block_made_meanwhile():
    nino, giorgi = UserFactory.create_batch(2)
    services.friend_request_create(sender_id=nino.pk, receiver_id=giorgi.pk)
    services.block_create(blocker_id=nino.pk, blocked_id=giorgi.pk)
    with pytest.raises(NotFound):  # the block took the request away
        services.friend_request_accept(receiver_id=giorgi.pk, sender_id=nino.pk)
    assert state() == ([], [])


def test_the_database_holds_one_friendship_a_pair():
    nino, giorgi = sorted(UserFactory.create_batch(2), key=lambda u: u.pk)
    with pytest.raises(IntegrityError):
        Friendship.objects.create(low=giorgi, high=nino, created_at="2026-12-04T12:00Z")
