"""Inviting a friend to a free seat, and answering an invitation."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.locking import lock_players
from common.errors import NotFound
from games.models import Seat, Table
from games.services.tables import seat_take
from social import messages, notify
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
from social.selectors import (
    are_friends,
    blocked_either_way,
    free_seats,
    invitation_json,
)


def invitation_create(
    *, inviter_id: int, invitee_id: int, table_id: int, now=None
) -> Invitation:
    """``inviter_id``, seated at a table waiting for players, invites a
    friend to one of its free seats, for ``INVITATION_SECONDS``. The friend
    hears of it on every page they have open (/ws/me/).

    Refused, with nothing changed: ``Yourself``; ``NotFound`` (no such
    player or table); ``Blocked`` when either has blocked the other;
    ``NotFriends``; ``NotSeated`` when the inviter has no seat at the table;
    ``NoFreeSeat`` when its game began or every seat is taken;
    ``AlreadySeated`` when the friend sits there; ``InvitedAlready`` while
    an invitation of the friend to the table is open;
    ``TooManyInvitations`` past ``INVITATIONS_PER_MINUTE``. Locks both
    players' rows.
    """
    if inviter_id == invitee_id:
        raise Yourself("you cannot invite yourself")
    now = now or timezone.now()
    with transaction.atomic():
        lock_players(inviter_id, invitee_id)
        if blocked_either_way(inviter_id, invitee_id):
            raise Blocked("this player takes no invitations from you")
        if not are_friends(inviter_id, invitee_id):
            raise NotFriends("only friends can be invited")
        recent = Invitation.objects.filter(
            inviter_id=inviter_id, created_at__gt=now - timedelta(minutes=1)
        ).count()
        if recent >= INVITATIONS_PER_MINUTE:
            raise TooManyInvitations(
                f"at most {INVITATIONS_PER_MINUTE} invitations a minute"
            )
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise NotFound(f"there is no table {table_id}")
        seated = set(
            Seat.objects.filter(
                table=table, left=False, user__isnull=False
            ).values_list("user_id", flat=True)
        )
        if inviter_id not in seated:
            raise NotSeated("only a player seated at the table can invite to it")
        if table.status != Table.Status.OPEN or not free_seats(table.pk):
            raise NoFreeSeat("the table has no free seat")
        if invitee_id in seated:
            raise AlreadySeated("your friend is seated at this table already")
        earlier = Invitation.objects.filter(
            table=table, invitee_id=invitee_id, status=Invitation.Status.PENDING
        )
        if earlier.filter(expires_at__gt=now).exists():
            raise InvitedAlready("your friend has an invitation to this table")
        earlier.update(status=Invitation.Status.EXPIRED)
        invitation = Invitation.objects.create(
            table=table,
            inviter_id=inviter_id,
            invitee_id=invitee_id,
            created_at=now,
            expires_at=now + timedelta(seconds=INVITATION_SECONDS),
        )
        transaction.on_commit(lambda: _tell_invitee(invitation.pk))
    return invitation


def invitation_accept(*, invitee, invitation_id: int, now=None) -> Invitation:
    """The invitee takes a free seat at the table through the seat service
    (``seat_take``, with every check of a seat: a ranked seat elsewhere,
    the stake, the rating a stake needs), then the invitation is accepted.

    ``NotFound`` when the invitation is not the invitee's; ``InvitationOver``
    when it was answered, expired, withdrawn, the two are no longer
    friends, the inviter left the table, or its seats are taken or its game
    began; a refusal of the seat service as it comes (``ranked_elsewhere``,
    ``few_coins``, ``rating_needed``): then nothing changed and the
    invitation stays open. Locks the invitee's row, the invitation, then
    the table (in ``seat_take``).
    """
    now = now or timezone.now()
    with transaction.atomic():
        lock_players(invitee.pk)
        invitation = _pending(invitee.pk, invitation_id, now)
        table = invitation.table
        if not are_friends(invitation.inviter_id, invitee.pk):
            raise InvitationOver("you are no longer friends")
        if not Seat.objects.filter(
            table=table, user_id=invitation.inviter_id, left=False
        ).exists():
            raise InvitationOver("your friend has left the table")
        seats = free_seats(table.pk)
        if table.status != Table.Status.OPEN or not seats:
            raise InvitationOver("the table has no free seat any more")
        seat_take(
            table_id=table.pk,
            user=invitee,
            number=seats[0],
            invite_code=table.invite_code,
            now=now,
        )
        _answer(invitation, Invitation.Status.ACCEPTED, now)
    return invitation


def invitation_decline(*, invitee_id: int, invitation_id: int, now=None) -> None:
    """The invitee says no; the inviter is told. ``NotFound`` when the
    invitation is not the invitee's, ``InvitationOver`` when it is no longer
    open. Locks the invitation."""
    now = now or timezone.now()
    with transaction.atomic():
        invitation = _pending(invitee_id, invitation_id, now)
        _answer(invitation, Invitation.Status.DECLINED, now)


def _pending(invitee_id: int, invitation_id: int, now) -> Invitation:
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("table", "inviter__profile", "invitee__profile")
        .filter(pk=invitation_id, invitee_id=invitee_id)
        .first()
    )
    if invitation is None:
        raise NotFound("there is no such invitation")
    if invitation.status != Invitation.Status.PENDING:
        raise InvitationOver(f"the invitation is {invitation.status} already")
    if invitation.expires_at <= now:
        raise InvitationOver("the invitation has expired")
    return invitation


def _answer(invitation: Invitation, status: str, now) -> None:
    invitation.status = status
    invitation.answered_at = now
    invitation.save(update_fields=["status", "answered_at"])
    answered = messages.InvitationAnswered(
        invitation.pk, invitation.table_id, status, invitation_json(invitation)["to"]
    )
    over = messages.InvitationOver(invitation.pk)
    transaction.on_commit(
        lambda: notify.send(
            [(invitation.inviter_id, answered), (invitation.invitee_id, over)]
        )
    )


def _tell_invitee(invitation_id: int) -> None:
    invitation = Invitation.objects.select_related(
        "table", "inviter__profile", "invitee__profile"
    ).get(pk=invitation_id)
    notify.send(
        [
            (
                invitation.invitee_id,
                messages.Invitation(invitation_json(invitation)),
            )
        ]
    )
