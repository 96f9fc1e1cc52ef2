"""Reads of what players decided about each other, and of where their
friends are."""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from accounts.selectors import display_name
from games.models import Seat, Table

from . import presence
from .models import Block, FriendRequest, Friendship, Invitation


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


def blocked_players(blocker_id: int) -> list[Block]:
    """The blocks ``blocker_id`` made, newest first, with the players."""
    return list(
        Block.objects.filter(blocker_id=blocker_id).select_related("blocked__profile")
    )


def pair(user_id: int, other_id: int) -> tuple[int, int]:
    """A friendship's (low, high) ids."""
    return (user_id, other_id) if user_id < other_id else (other_id, user_id)


def are_friends(user_id: int, other_id: int) -> bool:
    low, high = pair(user_id, other_id)
    return Friendship.objects.filter(low_id=low, high_id=high).exists()


def friend_ids(user_id: int) -> set[int]:
    rows = Friendship.objects.filter(Q(low_id=user_id) | Q(high_id=user_id))
    return {
        high if low == user_id else low
        for low, high in rows.values_list("low_id", "high_id")
    }


def friends(user_id: int) -> list:
    """The user's friends, by name."""
    users = get_user_model().objects.filter(pk__in=friend_ids(user_id))
    return sorted(
        users.select_related("profile"), key=lambda u: display_name(u).lower()
    )


def requests_received(user_id: int) -> list[FriendRequest]:
    return list(
        FriendRequest.objects.filter(receiver_id=user_id).select_related(
            "sender__profile"
        )
    )


def requests_sent(user_id: int) -> list[FriendRequest]:
    return list(
        FriendRequest.objects.filter(sender_id=user_id).select_related(
            "receiver__profile"
        )
    )


def relation(viewer_id: int, other_id: int) -> str:
    """What ``other_id`` is to ``viewer_id``, for the buttons of a player's
    page: "self", "blocked" (the viewer blocked them), "friend", "asked"
    (the viewer asked them), "asks" (they asked the viewer) or "none"."""
    if viewer_id == other_id:
        return "self"
    if blocks(viewer_id, other_id):
        return "blocked"
    if are_friends(viewer_id, other_id):
        return "friend"
    requests = FriendRequest.objects.filter(
        Q(sender_id=viewer_id, receiver_id=other_id)
        | Q(sender_id=other_id, receiver_id=viewer_id)
    ).values_list("sender_id", flat=True)
    for sender_id in requests:
        return "asked" if sender_id == viewer_id else "asks"
    return "none"


@dataclass(frozen=True)
class TablePlace:
    """A table a friend is seated at, as the viewer may see it."""

    table: int
    playing: bool
    url: str


@dataclass(frozen=True)
class FriendPresence:
    user: object
    name: str
    online: bool
    place: TablePlace | None


def tables_of(user_ids, *, viewer_id: int) -> dict[int, TablePlace]:
    """The table each of ``user_ids`` is seated at, waiting or in play (the
    latest, should there be two), left out where ``viewer_id`` may not see
    it: a private table only to a viewer seated there too."""
    viewer_seated = Seat.objects.filter(
        table_id=OuterRef("table_id"), user_id=viewer_id
    )
    seats = (
        Seat.objects.filter(
            user_id__in=list(user_ids),
            left=False,
            table__status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        )
        .filter(Q(table__is_private=False) | Exists(viewer_seated))
        .order_by("table__created_at")
        .values_list("user_id", "table_id", "table__status")
    )
    return {
        user_id: TablePlace(
            table=table_id,
            playing=status == Table.Status.PLAYING,
            url=reverse("games:table", args=[table_id]),
        )
        for user_id, table_id, status in seats
    }


def friends_with_presence(user_id: int, *, now: float | None = None) -> list:
    """The user's friends, by name, each with whether they are online and
    the table they sit at (``FriendPresence``)."""
    people = friends(user_id)
    ids = [person.pk for person in people]
    online = presence.online_ids(ids, now=time.time() if now is None else now)
    places = tables_of(ids, viewer_id=user_id)
    return [
        FriendPresence(
            user=person,
            name=display_name(person),
            online=person.pk in online,
            place=places.get(person.pk),
        )
        for person in people
    ]


def free_seats(table_id: int) -> list[int]:
    """The numbers of a table's seats nobody (person or bot) holds."""
    return list(
        Seat.objects.filter(table_id=table_id, user__isnull=True, bot="")
        .order_by("number")
        .values_list("number", flat=True)
    )


def invitation_is_open(invitation: Invitation, now) -> bool:
    """Pending, in time, and its table still waiting with a free seat."""
    return (
        invitation.status == Invitation.Status.PENDING
        and invitation.expires_at > now
        and invitation.table.status == Table.Status.OPEN
        and bool(free_seats(invitation.table_id))
    )


def _open_invitations(now):
    free = Seat.objects.filter(table_id=OuterRef("table_id"), user__isnull=True, bot="")
    return (
        Invitation.objects.filter(
            status=Invitation.Status.PENDING,
            expires_at__gt=now,
            table__status=Table.Status.OPEN,
        )
        .filter(Exists(free))
        .select_related("table", "inviter__profile", "invitee__profile")
    )


def invitations_received(user_id: int, *, now) -> list[Invitation]:
    """Invitations to the user still open, newest first."""
    return list(_open_invitations(now).filter(invitee_id=user_id))


def invitations_sent(user_id: int, *, now) -> list[Invitation]:
    return list(_open_invitations(now).filter(inviter_id=user_id))


def invitation_json(invitation: Invitation) -> dict:
    """An invitation as /ws/me/ and the API tell it."""
    table = invitation.table
    return {
        "id": invitation.pk,
        "table": table.pk,
        "url": reverse("games:table", args=[table.pk]),
        "profile": table.profile,
        "ranked": table.ranked,
        "stake": table.stake,
        "from": {
            "username": invitation.inviter.get_username(),
            "name": display_name(invitation.inviter),
        },
        "to": {
            "username": invitation.invitee.get_username(),
            "name": display_name(invitation.invitee),
        },
        "expires_at": invitation.expires_at.isoformat(),
    }


def invitable_friends(user_id: int, table_id: int) -> list:
    """Friends the user may invite to a table: not seated there, not
    blocked either way (a block ends a friendship, so none is)."""
    seated = set(
        Seat.objects.filter(table_id=table_id, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )
    return [person for person in friends(user_id) if person.pk not in seated]


def player_by_username(username: str):
    """The active player called ``username``, or None."""
    return (
        get_user_model()
        .objects.filter(is_active=True, username=username)
        .select_related("profile")
        .first()
    )


def player(user_id: int):
    """The player with this id, or None."""
    return get_user_model().objects.filter(pk=user_id).select_related("profile").first()


def invitation_stake(invitation_id: int) -> int | None:
    """The stake of the invitation's table (a refusal names it)."""
    return (
        Invitation.objects.filter(pk=invitation_id)
        .values_list("table__stake", flat=True)
        .first()
    )


def invite_choices(user_id: int, table: Table) -> list | None:
    """The friends the user may invite to ``table``, each with whether they
    are online; None when the user may not invite there (not seated at a
    table waiting for players with a free seat)."""
    if (
        table.status != Table.Status.OPEN
        or not Seat.objects.filter(table=table, user_id=user_id, left=False).exists()
        or not free_seats(table.pk)
    ):
        return None
    online = {f.user.pk for f in friends_with_presence(user_id) if f.online}
    return [
        (friend, friend.pk in online) for friend in invitable_friends(user_id, table.pk)
    ]
