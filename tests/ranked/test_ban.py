"""Banning a player: no login, no sockets, no seats at waiting tables."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.bans import user_ban
from accounts.models import Ban
from common.errors import NotAllowed
from config.asgi import application
from games.models import Game, Seat
from tests.factories import DEFAULT_PASSWORD, StaffUserFactory, UserFactory
from tests.games.helpers import SITE_HEADERS, all_connected, of_type, session_cookie
from tests.ranked.helpers import ranked_game, ranked_table, users_by_seat

db = database_sync_to_async


# The service


@pytest.mark.django_db
def test_a_ban_deactivates_the_account_and_records_who_and_why():
    player, operator = UserFactory(), StaffUserFactory()

    ban = user_ban(user=player, by=operator, reason=" cheating ")

    player.refresh_from_db()
    assert not player.is_active
    assert (ban.user, ban.by, ban.reason) == (player, operator, "cheating")
    assert list(Ban.objects.all()) == [ban]


@pytest.mark.django_db
def test_a_second_ban_records_nothing_new():
    player, operator = UserFactory(), StaffUserFactory()
    first = user_ban(user=player, by=operator, reason="cheating")

    again = user_ban(user=player, by=StaffUserFactory(), reason="again")

    assert again == first
    assert Ban.objects.count() == 1


@pytest.mark.django_db
def test_a_ban_needs_a_reason_and_an_operator_other_than_the_player():
    player, operator = UserFactory(), StaffUserFactory()
    with pytest.raises(ValueError):
        user_ban(user=player, by=operator, reason="  ")
    with pytest.raises(ValueError):
        user_ban(user=player, by=None, reason="cheating")
    with pytest.raises(NotAllowed):
        user_ban(user=operator, by=operator, reason="oops")
    player.refresh_from_db()
    operator.refresh_from_db()
    assert player.is_active and operator.is_active
    assert not Ban.objects.exists()


@pytest.mark.django_db
def test_a_banned_player_cannot_sign_in_and_their_session_ends():
    player = UserFactory()
    credentials = {"username": player.username, "password": DEFAULT_PASSWORD}
    browser = Client()
    assert browser.post("/accounts/login/", credentials).status_code == 302

    user_ban(user=player, by=StaffUserFactory(), reason="cheating")

    again = Client()
    assert again.post("/accounts/login/", credentials).status_code == 200
    assert "_auth_user_id" not in again.session
    response = browser.get("/api/v1/me/")
    assert response.status_code in (401, 403)


@pytest.mark.django_db
def test_a_ban_frees_the_players_seats_at_waiting_tables():
    table, users = ranked_table("joker-nines")
    game = ranked_game("japanese")
    playing = users_by_seat(game)[0]

    user_ban(user=users[1], by=StaffUserFactory(), reason="cheating")
    user_ban(user=playing, by=StaffUserFactory(), reason="cheating")

    assert Seat.objects.get(table=table, number=1).user is None
    # A game in progress keeps the seat: the player forfeits after the grace.
    assert Seat.objects.get(table=game.table, number=0).user == playing
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


# Sockets


async def open_raw(path: str, user=None) -> tuple[WebsocketCommunicator, bool, int]:
    headers = list(SITE_HEADERS)
    if user is not None:
        headers.append((b"cookie", await db(session_cookie)(user)))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=5)
    return comm, connected, code


async def closed_with(comm: WebsocketCommunicator, timeout: float = 5):
    """Skip what the socket was sent up to its close; return the close."""
    while True:
        message = await comm.receive_output(timeout)
        if message["type"] == "websocket.close":
            return message


@db
def new_game():
    game = ranked_game("japanese")
    return game, users_by_seat(game)


@db
def ban(user):
    user_ban(user=user, by=StaffUserFactory(), reason="cheating")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_ban_closes_the_players_game_socket_and_they_cannot_come_back(
    connect,
):
    game, (first, second) = await new_game()
    banned = await connect(game.pk, first)
    other = await connect(game.pk, second)
    await banned.receive_until(all_connected)
    await other.receive_until(all_connected)

    await ban(first)

    close = await closed_with(banned.comm)
    assert close["code"] == 4403
    assert close.get("reason") == "banned"
    # The browser answers the close; the seat's grace period starts, and the
    # other player, whose socket stays open, sees the seat go away.
    await banned.close()
    frame = await other.receive_until(of_type("presence"))
    assert not frame["seats"][0]["connected"]

    again = await connect(game.pk, first)
    assert await again.refusal() in (4401, 4403)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_ban_closes_the_players_lobby_socket_only():
    player, bystander = await db(UserFactory)(), await db(UserFactory)()
    mine, connected, _ = await open_raw("/ws/lobby/", player)
    assert connected
    theirs, connected, _ = await open_raw("/ws/lobby/", bystander)
    assert connected

    await ban(player)

    close = await closed_with(mine)
    assert close["code"] == 4403
    assert await theirs.receive_nothing(timeout=0.2)
    for comm in (mine, theirs):
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_inactive_user_with_a_session_is_refused(connect):
    game, (first, _) = await new_game()
    cookie_user = first

    @db
    def deactivate():
        get_user_model().objects.filter(pk=cookie_user.pk).update(is_active=False)

    await deactivate()
    socket = await connect(game.pk, cookie_user)
    assert await socket.refusal() in (4401, 4403)
