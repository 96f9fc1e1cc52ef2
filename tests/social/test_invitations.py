"""Invitations to a free seat, through the services: only friends, never
across a block, not too many; accepting seats the friend through the seat
service with every check it makes, once."""

from datetime import timedelta

import pytest
from django.utils import timezone

from common.errors import NotAllowed, NotFound
from games import services as games
from games.models import Seat, Table
from social import selectors, services
from social.errors import (
    INVITATION_SECONDS,
    INVITATIONS_PER_MINUTE,
    AlreadySeated,
    Blocked,
    InvitationOver,
    InvitedAlready,
    NoFreeSeat,
    NotFriends,
    NotSeated,
    TooManyInvitations,
    Yourself,
)
from social.models import Invitation
from tests.factories import UserFactory
from tests.ranked.helpers import ranked_table, take_coins
from tests.social.helpers import befriend, open_table

pytestmark = pytest.mark.django_db


def seated(table) -> list:
    return list(
        Seat.objects.filter(table=table)
        .order_by("number")
        .values_list("user_id", flat=True)
    )


def invite(inviter, invitee, table, now=None):
    return services.invitation_create(
        inviter_id=inviter.pk, invitee_id=invitee.pk, table_id=table.pk, now=now
    )


def test_an_accepted_invitation_seats_the_friend_once():
    nino, giorgi = UserFactory.create_batch(2)
    befriend(nino, giorgi)
    table = open_table(nino)
    invitation = invite(nino, giorgi, table)
    now = timezone.now()
    assert selectors.invitations_received(giorgi.pk, now=now) == [invitation]
    assert selectors.invitations_sent(nino.pk, now=now) == [invitation]

    services.invitation_accept(invitee=giorgi, invitation_id=invitation.pk)

    assert seated(table) == [nino.pk, giorgi.pk, None, None]
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.ACCEPTED
    with pytest.raises(InvitationOver):
        services.invitation_accept(invitee=giorgi, invitation_id=invitation.pk)
    with pytest.raises(InvitationOver):
        services.invitation_decline(invitee_id=giorgi.pk, invitation_id=invitation.pk)
    assert seated(table) == [nino.pk, giorgi.pk, None, None]
    assert selectors.invitations_received(giorgi.pk, now=now) == []


def test_a_private_table_is_joined_by_invitation():
    nino, giorgi = UserFactory.create_batch(2)
    befriend(nino, giorgi)
    table = open_table(nino, is_private=True)
    invitation = invite(nino, giorgi, table)
    services.invitation_accept(invitee=giorgi, invitation_id=invitation.pk)
    assert seated(table)[1] == giorgi.pk


def test_the_last_free_seat_taken_by_invitation_starts_the_game():
    nino, giorgi = UserFactory.create_batch(2)
    befriend(nino, giorgi)
    table = open_table(nino, profile="japanese")
    services.invitation_accept(
        invitee=giorgi, invitation_id=invite(nino, giorgi, table).pk
    )
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_a_declined_invitation_is_over_and_may_be_sent_again():
    nino, giorgi = UserFactory.create_batch(2)
    befriend(nino, giorgi)
    table = open_table(nino)
    invitation = invite(nino, giorgi, table)
    with pytest.raises(InvitedAlready):
        invite(nino, giorgi, table)
    services.invitation_decline(invitee_id=giorgi.pk, invitation_id=invitation.pk)
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED
    with pytest.raises(InvitationOver):
        services.invitation_accept(invitee=giorgi, invitation_id=invitation.pk)
    assert seated(table) == [nino.pk, None, None, None]
    invite(nino, giorgi, table)


def test_an_invitation_expires():
    nino, giorgi = UserFactory.create_batch(2)
    befriend(nino, giorgi)
    table = open_table(nino)
    sent = timezone.now() - timedelta(seconds=INVITATION_SECONDS)
    invitation = invite(nino, giorgi, table, now=sent)
    assert selectors.invitations_received(giorgi.pk, now=timezone.now()) == []
    with pytest.raises(InvitationOver):
        services.invitation_accept(invitee=giorgi, invitation_id=invitation.pk)
    assert seated(table) == [nino.pk, None, None, None]
    # An expired one does not stand in the way of a new one.
    assert invite(nino, giorgi, table).pk != invitation.pk


def test_an_invitation_is_over_once_the_seats_are_taken():
    nino, giorgi, tamar = UserFactory.create_batch(3)
    befriend(nino, giorgi)
    table = open_table(nino, profile="japanese")
    invitation = invite(nino, giorgi, table)
    games.seat_take(table_id=table.pk, user=tamar, number=1)
    assert selectors.invitations_received(giorgi.pk, now=timezone.now()) == []
    with pytest.raises(InvitationOver):
        services.invitation_accept(invitee=giorgi, invitation_id=invitation.pk)
    assert seated(table) == [nino.pk, tamar.pk]


def test_accepting_keeps_every_check_of_a_seat_and_leaves_the_invitation_open():
    nino, giorgi = UserFactory.create_batch(2)
    befriend(nino, giorgi)
    table, _ = ranked_table("joker", stake=10, users=[nino, None, None, None])
    take_coins(giorgi, 1000)
    invitation = invite(nino, giorgi, table)
    with pytest.raises(NotAllowed) as refused:
        services.invitation_accept(invitee=giorgi, invitation_id=invitation.pk)
    assert refused.value.code == "few_coins"
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.PENDING
    assert seated(table) == [nino.pk, None, None, None]

    # A seat at another ranked table: refused too.
    tamar = UserFactory()
    befriend(tamar, nino)
    ranked_table("japanese", users=[tamar, None])
    other = invite(nino, tamar, table)
    with pytest.raises(NotAllowed) as refused:
        services.invitation_accept(invitee=tamar, invitation_id=other.pk)
    assert refused.value.code == "ranked_elsewhere"
    assert seated(table) == [nino.pk, None, None, None]


def test_only_the_invitee_answers():
    nino, giorgi, tamar = UserFactory.create_batch(3)
    befriend(nino, giorgi)
    invitation = invite(nino, giorgi, open_table(nino))
    with pytest.raises(NotFound):
        services.invitation_accept(invitee=tamar, invitation_id=invitation.pk)
    with pytest.raises(NotFound):
        services.invitation_decline(invitee_id=nino.pk, invitation_id=invitation.pk)


def test_refused_invitations_change_nothing():
    nino, giorgi, tamar, levan = UserFactory.create_batch(4)
    befriend(nino, giorgi)
    befriend(nino, levan)
    table = open_table(nino)
    full = open_table(tamar, profile="japanese")
    games.seat_take(table_id=full.pk, user=nino, number=1)
    games.seat_take(table_id=table.pk, user=levan, number=1)
    refusals = [
        (Yourself, nino, nino, table),
        (NotFriends, nino, tamar, table),
        (NotSeated, giorgi, nino, table),
        (NoFreeSeat, nino, giorgi, full),
        (AlreadySeated, nino, levan, table),
    ]
    for error, inviter, invitee, where in refusals:
        with pytest.raises(error):
            invite(inviter, invitee, where)
    assert not Invitation.objects.exists()


def test_a_player_who_blocked_you_cannot_be_invited_and_a_block_withdraws():
    nino, giorgi, tamar = UserFactory.create_batch(3)
    befriend(nino, giorgi)
    befriend(nino, tamar)
    table = open_table(nino)
    pending = invite(nino, tamar, table)
    services.block_create(blocker_id=tamar.pk, blocked_id=nino.pk)
    pending.refresh_from_db()
    assert pending.status == Invitation.Status.WITHDRAWN
    with pytest.raises(InvitationOver):
        services.invitation_accept(invitee=tamar, invitation_id=pending.pk)
    with pytest.raises(Blocked):
        invite(nino, tamar, table)
    assert Invitation.objects.count() == 1


def test_invitations_are_limited_to_a_few_a_minute():
    nino = UserFactory()
    friends = UserFactory.create_batch(INVITATIONS_PER_MINUTE + 1)
    now = timezone.now()
    for friend in friends:
        befriend(nino, friend)
    tables = [open_table(nino) for _ in range(INVITATIONS_PER_MINUTE + 1)]
    for friend, table in zip(friends[:-1], tables[:-1], strict=True):
        invite(nino, friend, table, now=now)
    with pytest.raises(TooManyInvitations):
        invite(nino, friends[-1], tables[-1], now=now)
    assert Invitation.objects.count() == INVITATIONS_PER_MINUTE
    invite(nino, friends[-1], tables[-1], now=now + timedelta(minutes=1))
