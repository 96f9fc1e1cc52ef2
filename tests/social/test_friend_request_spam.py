"""Friend requests made and taken back again and again, through the REST API
and the receiver's own /ws/me/ socket (whose ``friend_request`` frames are
the notices a browser shows): a limit per pair and per sender, a clear
refusal past it, and no notice at all from a player the receiver muted."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone
from rest_framework.test import APIClient

from chat.services import personal_mute_set
from social.errors import FRIEND_REQUESTS_A_PAIR_PER_DAY, FRIEND_REQUESTS_PER_HOUR
from social.models import FriendRequest
from tests.factories import UserFactory
from tests.social.test_me_socket import sockets  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def ask(client: APIClient, username: str):
    return client.post("/api/v1/friends/requests/", {"username": username})


def take_back(client: APIClient, username: str):
    return client.post(f"/api/v1/friends/requests/{username}/cancel/")


async def notices_until_from(me, marker) -> list[str]:
    """The senders of every ``friend_request`` frame on the socket ``me``, up
    to and including the one from ``marker`` (asked last, so every notice
    sent before it has arrived)."""
    senders = []
    while not senders or senders[-1] != marker.username:
        frame = await me.receive_until("friend_request")
        senders.append(frame["from"]["username"])
    return senders


@db
def ask_and_take_back(sender, receiver, times: int) -> list[tuple[int, str]]:
    client = signed_in(sender)
    answers = []
    for _ in range(times):
        asked = ask(client, receiver.username)
        answers.append((asked.status_code, asked.json().get("code", "")))
        if asked.status_code == 201:
            assert take_back(client, receiver.username).status_code == 204
    return answers


async def test_asking_and_taking_back_fifteen_times_notifies_three_times(sockets):  # noqa: F811
    spammer, victim, friend = await db(UserFactory.create_batch)(3)
    theirs = await sockets(victim)
    await theirs.receive_until("hello")

    answers = await ask_and_take_back(spammer, victim, 15)

    limit = FRIEND_REQUESTS_A_PAIR_PER_DAY
    assert answers == [(201, "")] * limit + [(429, "too_many_friend_requests")] * (
        15 - limit
    )
    await db(ask)(signed_in(friend), victim.username)
    notices = await notices_until_from(theirs, friend)
    assert notices == [spammer.username] * limit + [friend.username]


@db
def ask_many(sender, count: int) -> list[int]:
    client = signed_in(sender)
    return [ask(client, UserFactory().username).status_code for _ in range(count)]


async def test_a_sender_asks_a_limited_number_of_players_an_hour():
    sender = await db(UserFactory)()
    statuses = await ask_many(sender, FRIEND_REQUESTS_PER_HOUR + 1)
    assert statuses == [201] * FRIEND_REQUESTS_PER_HOUR + [429]
    count = await db(FriendRequest.objects.filter(sender=sender).count)()
    assert count == FRIEND_REQUESTS_PER_HOUR


async def test_a_muted_players_request_reaches_the_list_but_makes_no_notice(sockets):  # noqa: F811
    muted, victim, friend = await db(UserFactory.create_batch)(3)
    await db(personal_mute_set)(
        user_id=victim.pk, muted_id=muted.pk, muted=True, now=timezone.now()
    )
    theirs = await sockets(victim)
    await theirs.receive_until("hello")

    assert (await db(ask)(signed_in(muted), victim.username)).status_code == 201
    await db(ask)(signed_in(friend), victim.username)

    assert await notices_until_from(theirs, friend) == [friend.username]
    received = db(FriendRequest.objects.filter(receiver=victim).count)
    assert await received() == 2
