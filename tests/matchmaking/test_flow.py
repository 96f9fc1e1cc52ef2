"""Quick play end to end: pool, tick, the WebSocket message, the whole game,
its rating and its pot."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.bans import user_ban
from coins import services as coins
from config.asgi import application
from games import stakes
from games.models import Game, Table
from matchmaking import services
from matchmaking.grouping import WINDOW_START, window
from matchmaking.models import Match, PoolEntry
from ratings.categories import category_of
from ratings.models import RatingChange
from tests.factories import StaffUserFactory
from tests.games.helpers import SITE_HEADERS, session_cookie
from tests.matchmaking.helpers import player
from tests.ranked.helpers import finish

STAKE = 100
WELCOME = 1000


async def quickplay_socket(user=None) -> WebsocketCommunicator:
    headers = list(SITE_HEADERS)
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    comm = WebsocketCommunicator(application, "/ws/quickplay/", headers=headers)
    comm.connected, comm.close_code = await comm.connect(timeout=5)
    return comm


async def refusal(comm: WebsocketCommunicator) -> int:
    """A refused socket is accepted, then closed at once with its code."""
    assert comm.connected
    message = await comm.receive_output(timeout=5)
    assert message["type"] == "websocket.close", message
    return message["code"]


async def ping(comm) -> dict:
    await comm.send_json_to({"type": "ping"})
    return await comm.receive_json_from(timeout=5)


async def ping_once_waiting(comm) -> dict:
    """The status a ping gets once the socket has heard of the player's
    join (on another page, told to the socket through the channel layer:
    a ping sent meanwhile may come first)."""
    for _ in range(50):
        status = await ping(comm)
        if status["waiting"]:
            return status
        await asyncio.sleep(0.1)
    raise AssertionError(f"the socket never heard of the join: {status}")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(240)
@pytest.mark.parametrize(("category", "size"), [("japanese", 2), ("joker-nines", 4)])
async def test_players_are_matched_play_a_ranked_game_and_get_paid(category, size):
    users = await database_sync_to_async(
        lambda: [player(1500 + 20 * n, category) for n in range(size)]
    )()
    sockets = [await quickplay_socket(user) for user in users]
    try:
        assert all(comm.connected for comm in sockets)
        assert (await ping(sockets[0]))["waiting"] is False

        for user in users:
            await database_sync_to_async(services.pool_join)(
                user=user, category=category, stake=STAKE
            )
        status = await ping_once_waiting(sockets[1])
        assert (status["waiting"], status["players"]) == (True, size)
        # The window starts at 100 and has widened by the time waited so far
        # (shown in whole seconds, so up to one second more).
        assert WINDOW_START <= status["window"] <= window(status["waited"] + 1)

        matches = await database_sync_to_async(services.match_tick)()
        assert len(matches) == 1
        table_id = matches[0].table_id

        for comm in sockets:
            message = await comm.receive_json_from(timeout=5)
            assert message == {
                "type": "matched",
                "table": table_id,
                "url": f"/tables/{table_id}/",
            }
            assert await comm.receive_nothing(timeout=0.1)
        # The status now points to the table, too.
        status = await ping(sockets[0])
        assert (status["waiting"], status["table"]) == (False, table_id)
    finally:
        for comm in sockets:
            await comm.disconnect(timeout=5)

    await database_sync_to_async(play_it_out)(table_id, users, category)


def play_it_out(table_id: int, users, category: str) -> None:
    table = Table.objects.get(pk=table_id)
    game = Game.objects.get(table=table)
    assert table.ranked and table.stake == STAKE
    assert category_of(table.profile, table.options) == category
    assert table.status == Table.Status.PLAYING
    assert {seat.user_id for seat in table.seats.all()} == {u.pk for u in users}
    pot = STAKE * len(users)
    assert coins.escrow_balance(stakes.escrow_ref(game)) == pot
    assert [coins.wallet_of(u).balance for u in users] == [WELCOME - STAKE] * len(users)
    assert not PoolEntry.objects.exists()
    assert Match.objects.get().table_id == table_id

    # Nobody moves: at every deadline the timer makes the autopilot's move.
    game = finish(game)

    assert game.status == Game.Status.FINISHED
    changes = RatingChange.objects.filter(game=game)
    assert {c.user_id for c in changes} == {u.pk for u in users}
    assert all(c.category == category for c in changes)
    seats = {seat.number: seat.user_id for seat in table.seats.all()}
    winners = [seats[number] for number in sorted(game.result["winners"])]
    shares = stakes.split_pot(pot, winners)
    assert coins.escrow_balance(stakes.escrow_ref(game)) == 0
    for user in users:
        paid = shares.get(user.pk, 0)
        assert coins.wallet_of(user).balance == WELCOME - STAKE + paid
    assert sum(shares.values()) == pot
    assert coins.ledger_total() == 0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_anonymous_socket_is_refused():
    comm = await quickplay_socket()
    assert await refusal(comm) == 4401
    await comm.disconnect(timeout=5)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_ping_keeps_the_player_in_the_pool_and_other_frames_get_an_error():
    user = await database_sync_to_async(player)()
    comm = await quickplay_socket(user)
    try:
        await comm.send_to(text_data="not json")
        assert (await comm.receive_json_from(timeout=5))["code"] == "bad_message"
        await comm.send_json_to({"type": "dance"})
        assert (await comm.receive_json_from(timeout=5))["code"] == "bad_message"

        await database_sync_to_async(services.pool_join)(
            user=user, category="joker", stake=0
        )
        entry = await database_sync_to_async(PoolEntry.objects.get)(user=user)
        status = await ping_once_waiting(comm)
        assert status["type"] == "status" and status["waiting"] is True
        # The ping is kept in Redis; the tick takes it into the entry.
        await database_sync_to_async(services.match_tick)(now=timezone.now())
        seen = await database_sync_to_async(PoolEntry.objects.get)(user=user)
        assert seen.seen_at > entry.seen_at
    finally:
        await comm.disconnect(timeout=5)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_player_who_leaves_without_a_match_hears_of_it():
    user = await database_sync_to_async(player)()
    comm = await quickplay_socket(user)
    try:
        await database_sync_to_async(services.pool_join)(
            user=user, category="joker", stake=0
        )
        entry = await database_sync_to_async(PoolEntry.objects.get)(user=user)
        later = entry.seen_at + timedelta(seconds=services.AWAY_SECONDS + 1)
        await database_sync_to_async(services.match_tick)(now=later)

        assert await comm.receive_json_from(timeout=5) == {
            "type": "removed",
            "reason": "away",
        }
    finally:
        await comm.disconnect(timeout=5)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_ban_closes_the_quickplay_socket_and_a_banned_user_cannot_connect():
    user = await database_sync_to_async(player)()
    comm = await quickplay_socket(user)
    assert comm.connected

    await database_sync_to_async(user_ban)(
        user=user, by=await database_sync_to_async(StaffUserFactory)(), reason="x"
    )

    while (message := await comm.receive_output(timeout=5))["type"] != (
        "websocket.close"
    ):
        pass
    assert message["code"] == 4403
    await comm.disconnect(timeout=5)
    again = await quickplay_socket(user)
    assert await refusal(again) in (4401, 4403)
    await again.disconnect(timeout=5)
