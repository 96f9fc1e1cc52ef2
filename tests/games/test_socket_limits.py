"""Limits on one client: a message rate per socket, a cap on sockets per
user (games.socket_limits)."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from channels.db import database_sync_to_async
from hypothesis import given
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games import socket_limits
from games.socket_limits import MessageRate, TokenBucket
from tests.games.helpers import SITE_HEADERS, of_type, open_socket, session_cookie
from tests.ranked.helpers import ranked_game, users_by_seat
from tests.serving import serving


def test_a_bucket_gives_its_burst_then_its_rate():
    bucket = TokenBucket(rate=10, burst=3)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert not bucket.take(0.05)  # half a token
    assert bucket.take(0.1)
    assert bucket.take(10.0) and bucket.take(10.0) and bucket.take(10.0)
    assert not bucket.take(10.0)  # saved up to the burst, no more


@given(
    st.floats(min_value=0.5, max_value=100),
    st.integers(min_value=1, max_value=50),
    st.lists(st.floats(min_value=0, max_value=5), max_size=200),
)
def test_a_bucket_never_passes_more_than_its_burst_and_rate(rate, burst, gaps):
    bucket, now, passed = TokenBucket(rate=rate, burst=burst), 0.0, 0
    for gap in gaps:
        now += gap
        passed += bucket.take(now)
    assert passed <= burst + rate * now + 1e-6


def test_a_flood_is_warned_once_then_dropped_then_closed():
    rate = MessageRate(rate=1, burst=2)
    verdicts = [rate.verdict(now=0.0) for _ in range(6)]
    assert verdicts == ["pass", "pass", "warn", "drop", "close", "close"]
    assert rate.verdict(now=5.0) == "pass"  # the rate fell: welcome back


def test_a_client_refused_every_other_message_is_closed_all_the_same():
    # Arriving at twice the rate, every other message passes: the count of
    # refusals goes on, so the trickle ends as a flood does.
    rate = MessageRate(rate=10, burst=3)
    verdicts = [rate.verdict(now=n * 0.05) for n in range(40)]
    assert "close" in verdicts
    assert verdicts.count("warn") == 1


def test_a_client_back_within_the_rate_starts_afresh():
    rate = MessageRate(rate=10, burst=3)
    for _ in range(6):
        rate.verdict(now=0.0)
    assert rate.verdict(now=1.0) == "pass"  # the bucket is full again
    assert [rate.verdict(now=1.0) for _ in range(3)] == ["pass", "pass", "warn"]


db = database_sync_to_async


@db
def a_game():
    game = ranked_game("japanese")
    return game, users_by_seat(game)


async def closed_with(socket, timeout: float = 5):
    while True:
        message = await socket.comm.receive_output(timeout)
        if message["type"] == "websocket.close":
            return message


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_that_floods_is_told_then_closed(settings):
    settings.PULKA_SOCKET_RATE, settings.PULKA_SOCKET_BURST = 1, 5
    game, (first, _) = await a_game()
    socket = await open_socket(game.pk, first)
    await socket.receive_until(of_type("sync"))
    for _ in range(12):
        await socket.send({"type": "ping"})
    pongs, errors = 0, []
    while True:
        message = await socket.comm.receive_output(5)
        if message["type"] == "websocket.close":
            break
        frame = json.loads(message["text"])
        pongs += frame["type"] == "pong"
        if frame["type"] == "error":
            errors.append(frame["code"])
    assert message["code"] == 4429
    assert pongs == 5
    assert errors == ["rate_limited"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_ninth_socket_closes_the_users_oldest(settings):
    settings.PULKA_SOCKETS_PER_USER = 8
    game, (first, _) = await a_game()
    sockets = []
    for _ in range(8):
        socket = await open_socket(game.pk, first)
        await socket.receive_until(of_type("sync"))
        sockets.append(socket)
    newest = await open_socket(game.pk, first)
    assert newest.connected

    close = await closed_with(sockets[0])
    assert (close["code"], close["reason"]) == (4409, "too many sockets")
    for socket in [*sockets[1:], newest]:
        await socket.send({"type": "ping"})
        assert (await socket.receive_until(of_type("pong")))["type"] == "pong"
    for socket in [*sockets[1:], newest]:
        await socket.close()


@db
def counted(user) -> int:
    return socket_limits._redis().zcard(socket_limits._key(user.pk))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_closed_socket_is_counted_no_more():
    game, (first, _) = await a_game()
    one = await open_socket(game.pk, first)
    two = await open_socket(game.pk, first)
    await two.receive_until(of_type("sync"))
    assert await counted(first) == 2
    await one.close()
    assert await counted(first) == 1
    await two.close()
    assert await counted(first) == 0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_session_closed_for_flooding_is_closed_again_as_it_connects(settings):
    settings.PULKA_SOCKET_RATE, settings.PULKA_SOCKET_BURST = 1, 3
    game, (first, _) = await a_game()
    cookie = await db(session_cookie)(first)
    socket = await open_socket_with(game.pk, cookie)
    for _ in range(10):
        await socket.send({"type": "ping"})
    assert (await closed_with(socket))["code"] == 4429

    again = await open_socket_with(game.pk, cookie)
    assert await again.refusal() == 4429
    await again.close()
    # Another session of the same player is not paused.
    other = await open_socket(game.pk, first)
    assert other.connected
    await other.close()


async def open_socket_with(game_id: int, cookie: bytes):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.games.helpers import Socket

    headers = [*SITE_HEADERS, (b"cookie", cookie)]
    socket = Socket(
        WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    )
    socket.connected, socket.close_code = await socket.comm.connect(timeout=5)
    return socket


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_flooder_is_closed_once_with_4429_and_nothing_goes_wrong(
    settings, caplog
):
    # Frames that arrived before the close are still handed to the consumer
    # (at most one read's worth: games.socket_limits), each past the rate
    # again. A second websocket.close is an error of the ASGI server's
    # ("Unexpected ASGI message 'websocket.close', after sending
    # 'websocket.close'"): the socket closes once, whatever follows.
    settings.PULKA_SOCKET_RATE, settings.PULKA_SOCKET_BURST = 1, 3
    caplog.set_level(logging.WARNING)
    async with serving() as base:
        async with connect(
            f"{base.replace('http', 'ws', 1)}/ws/lobby/", origin=base, proxy=None
        ) as ws:
            # All in one write, so that one read of the server's brings them.
            for _ in range(40):
                ws.protocol.send_text(json.dumps({"type": "ping"}).encode())
            ws.transport.write(b"".join(ws.protocol.data_to_send()))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await ws.recv()
        # The consumer's end runs after the client has seen the close.
        await asyncio.sleep(0.5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
