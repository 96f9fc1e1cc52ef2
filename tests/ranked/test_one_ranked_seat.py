"""One live ranked seat per player, under concurrent requests.

Each request runs on a thread of its own with its own database connection,
as two web processes would, released together by a barrier: a check made
by each request before the others commit would let all of them through.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client

from games import services
from games.models import Seat, Table
from games.views.lobby import SEAT_REFUSALS
from matchmaking import services as quick_play
from matchmaking.models import PoolEntry
from ratings.categories import preset
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]

TABLES = 12
ELSEWHERE = str(SEAT_REFUSALS["ranked_elsewhere"])


def at_once(calls):
    """Run the calls on one thread each, released together; each call's
    result, in order (an exception is returned, not raised)."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        try:
            barrier.wait()
            return call()
        except Exception as error:  # reported by the callers' asserts
            return error
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def open_four_player_tables(count: int) -> list[Table]:
    """Ranked Joker tables, each with its own creator in seat 0."""
    profile, options = preset("joker")
    return [
        services.table_create(
            user=UserFactory(), profile=profile, options=options, ranked=True
        )
        for _ in range(count)
    ]


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def message_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def seats_of(user) -> list[Seat]:
    return list(Seat.objects.filter(user=user).select_related("table"))


def test_twelve_seats_taken_at_once_on_the_lobby_page_seat_the_player_once():
    tables = open_four_player_tables(TABLES)
    player = UserFactory()
    clients = [signed_in(player) for _ in tables]

    answers = at_once(
        [
            lambda client=client, table=table: client.post(
                f"/tables/{table.pk}/seats/1/take/"
            )
            for client, table in zip(clients, tables, strict=True)
        ]
    )

    assert not [a for a in answers if isinstance(a, Exception)], answers
    seated = [
        table
        for table, answer in zip(tables, answers, strict=True)
        if answer["Location"] == f"/tables/{table.pk}/"
    ]
    taken = seats_of(player)
    assert len(taken) == 1
    assert [table.pk for table in seated] == [taken[0].table_id]
    refused = [
        answer
        for table, answer in zip(tables, answers, strict=True)
        if table not in seated
    ]
    assert len(refused) == TABLES - 1
    for answer in refused:
        assert answer.status_code == 302
        assert message_of(answer) == [ELSEWHERE]
    # The refused tables are as they were: the creator alone, still open.
    for table in tables:
        if table.pk == taken[0].table_id:
            continue
        assert list(
            Seat.objects.filter(table=table, user__isnull=False).values_list(
                "number", flat=True
            )
        ) == [0]
        table.refresh_from_db()
        assert table.status == Table.Status.OPEN


def test_twelve_ranked_tables_created_at_once_seat_the_creator_once():
    player = UserFactory()
    clients = [signed_in(player) for _ in range(TABLES)]
    form = {
        "profile": "georgian-club",
        "ranked": "on",
        "category": "joker",
        "turn_seconds": "30",
        "stake": "0",
    }

    answers = at_once(
        [lambda client=client: client.post("/tables/new/", form) for client in clients]
    )

    assert not [a for a in answers if isinstance(a, Exception)], answers
    assert len(seats_of(player)) == 1
    assert Table.objects.filter(ranked=True).count() == 1
    refused = [a for a in answers if a.status_code != 302]
    assert len(refused) == TABLES - 1
    for answer in refused:
        assert ELSEWHERE in message_of(answer)


def test_quick_play_and_the_lobby_at_once_seat_the_player_once():
    """A player waiting in quick play takes lobby seats while the tick seats
    their group: one seat in all, the other refused or dropped."""
    tables = open_four_player_tables(TABLES - 1)
    player, partner = UserFactory(), UserFactory()
    for user in (player, partner):
        quick_play.pool_join(user=user, category="japanese", stake=0)

    calls = [
        lambda table=table: services.seat_take(table_id=table.pk, user=player, number=1)
        for table in tables
    ]
    results = at_once([quick_play.match_tick, *calls])

    unexpected = [
        r for r in results if isinstance(r, Exception) and r.code != "ranked_elsewhere"
    ]
    assert not unexpected, unexpected
    live = [
        seat
        for seat in seats_of(player)
        if seat.table.status in (Table.Status.OPEN, Table.Status.PLAYING)
    ]
    assert len(live) == 1
    if live[0].table.profile == "japanese":
        assert results[0]  # the tick seated them
    else:
        # The tick found them seated and dropped their entry.
        assert not PoolEntry.objects.filter(user=player).exists()
