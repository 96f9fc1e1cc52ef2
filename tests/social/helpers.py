"""Friends and tables for the social tests, through the services."""

from __future__ import annotations

from games import services as games
from social import services


def befriend(one, other) -> None:
    """Make two players friends: one asks, the other accepts."""
    services.friend_request_create(sender_id=one.pk, receiver_id=other.pk)
    services.friend_request_accept(receiver_id=other.pk, sender_id=one.pk)


def open_table(user, profile: str = "georgian-club", **options):
    """A table waiting for players, ``user`` in seat 0."""
    return games.table_create(user=user, profile=profile, **options)
