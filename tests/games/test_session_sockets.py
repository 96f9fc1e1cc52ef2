"""Sockets end with their session: a logout closes the sockets opened in
that session, a password change or a deactivation every socket of the user,
and the old session can open no socket again."""

from __future__ import annotations

import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from games.live.hall import hall
from games.models import Game
from tests.games.helpers import (
    SITE_HEADERS,
    Socket,
    action_message,
    first_legal,
    of_type,
    snapshot,
)
from tests.ranked.helpers import ranked_game, users_by_seat

db = database_sync_to_async

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@db
def a_game():
    game = ranked_game("japanese")
    return game, users_by_seat(game)


@db
def browser_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def socket_in(browser: Client, game_id: int) -> Socket:
    name = settings.SESSION_COOKIE_NAME
    cookie = f"{name}={browser.cookies[name].value}"
    headers = [*SITE_HEADERS, (b"cookie", cookie.encode())]
    socket = Socket(
        WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    )
    socket.connected, socket.close_code = await socket.comm.connect(timeout=5)
    assert socket.connected
    await socket.receive_until(of_type("sync"))
    return socket


async def closed_with(socket: Socket, timeout: float = 1):
    """The close the socket gets within ``timeout`` seconds, skipping what
    came before it."""
    while True:
        message = await socket.comm.receive_output(timeout)
        if message["type"] == "websocket.close":
            return message


@db
def log_out(browser: Client) -> None:
    assert browser.post("/accounts/logout/").status_code == 302


@db
def version_of(game) -> int:
    return Game.objects.get(pk=game.pk).version


async def test_a_logout_closes_the_sockets_of_that_session_only():
    game, (first, _) = await a_game()
    here, elsewhere = await browser_of(first), await browser_of(first)
    leaving = await socket_in(here, game.pk)
    staying = await socket_in(elsewhere, game.pk)

    await log_out(here)

    close = await closed_with(leaving)
    assert (close["code"], close["reason"]) == (4401, "signed out")
    await staying.send({"type": "ping"})
    assert (await staying.receive_until(of_type("pong")))["type"] == "pong"
    await staying.close()


@db
def change_password(user) -> None:
    user.set_password("a-whole-new-password-7")
    user.save()


@db
def deactivate(user) -> None:
    user.is_active = False
    user.save()


async def test_a_password_change_closes_every_socket_of_the_user():
    game, (first, _) = await a_game()
    one = await socket_in(await browser_of(first), game.pk)
    two = await socket_in(await browser_of(first), game.pk)

    await change_password(first)

    for socket in (one, two):
        assert (await closed_with(socket))["code"] == 4401


async def test_a_deactivation_in_the_admin_closes_every_socket_as_a_ban():
    game, (first, _) = await a_game()
    socket = await socket_in(await browser_of(first), game.pk)

    await deactivate(first)

    close = await closed_with(socket)
    assert (close["code"], close["reason"]) == (4403, "banned")


@db
def mover_and_action(game):
    """The player to move and a legal action of theirs."""
    game = Game.objects.get(pk=game.pk)
    turn = game.engine_state().turn
    return (
        users_by_seat(game)[turn],
        first_legal(snapshot(game, turn)["view"]),
        game.version,
    )


async def test_after_a_logout_the_old_session_cannot_act_or_connect_again():
    game, _ = await a_game()
    mover, _, version = await mover_and_action(game)
    browser = await browser_of(mover)
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].value
    socket = await socket_in(browser, game.pk)

    await log_out(browser)

    assert (await closed_with(socket))["code"] == 4401
    headers = [
        *SITE_HEADERS,
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]
    again = Socket(
        WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    )
    again.connected, again.close_code = await again.comm.connect(timeout=5)
    assert await again.refusal() == 4401
    await again.close()
    assert await version_of(game) == version


async def test_after_a_password_change_a_new_session_plays_on():
    game, _ = await a_game()
    mover, action, version = await mover_and_action(game)
    await change_password(mover)
    socket = await socket_in(await browser_of(mover), game.pk)

    await socket.send(action_message(version, action))

    ack = await socket.receive_until(of_type("ack"))
    assert ack["id"] == "a1"
    assert await version_of(game) > version
    await socket.close()


@db
def end_unheard(how: str, user, session_key: str) -> None:
    """End the session as a logout, a password change or a ban does, with
    no word to the sockets (the notice lost with Redis): the rows alone."""
    from django.contrib.auth.models import User
    from django.contrib.sessions.models import Session

    if how == "logout":
        Session.objects.filter(session_key=session_key).delete()
    elif how == "password":
        User.objects.filter(pk=user.pk).update(password="md5$other$0123")
    else:
        User.objects.filter(pk=user.pk).update(is_active=False)


@pytest.mark.parametrize(
    ("how", "close"),
    [
        ("logout", (4401, "signed out")),
        ("password", (4401, "signed out")),
        ("ban", (4403, "banned")),
    ],
)
async def test_a_move_after_an_unheard_end_of_the_session_is_refused(how, close):
    """While Redis is in doubt, each move reads the session from the
    database first: a socket never told that its session ended plays
    nothing, and closes as if told."""
    game, _ = await a_game()
    mover, action, version = await mover_and_action(game)
    browser = await browser_of(mover)
    socket = await socket_in(browser, game.pk)
    # The server's heartbeat has just failed to reach Redis.
    (await hall()).heartbeat_failed_at = time.monotonic()

    await end_unheard(how, mover, browser.cookies[settings.SESSION_COOKIE_NAME].value)
    await socket.send(action_message(version, action))

    got = await closed_with(socket, timeout=5)
    assert (got["code"], got["reason"]) == close
    assert await version_of(game) == version
