"""Two ticks at once, on PostgreSQL: nobody is seated twice.

Each thread has its own database connection.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest
from django.db import connections

from coins import services as coins
from games import stakes
from games.models import Game, Seat, Table
from matchmaking import services
from matchmaking.errors import NotWaiting
from matchmaking.models import Match, PoolEntry
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]

STAKE = 10


def at_once(*calls):
    """Run each call in its own thread and connection, released together;
    returns their results in order and re-raises the first error."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)
    errors: list = []

    def run(n, call):
        try:
            barrier.wait(timeout=10)
            results[n] = call()
        except Exception as error:  # reported to the test below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(n, call)) for n, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    if errors:
        raise errors[0]
    return results


@pytest.mark.parametrize(("category", "size"), [("japanese", 2), ("joker", 4)])
def test_two_ticks_at_once_never_seat_one_player_twice(category, size):
    users = [UserFactory() for _ in range(size * 6)]
    for user in users:
        services.pool_join(user=user, category=category, stake=STAKE)

    for _ in range(5):
        at_once(services.match_tick, services.match_tick)
        if not PoolEntry.objects.exists():
            break

    # Whatever the ticks raced for, everyone ends at exactly one table.
    assert not PoolEntry.objects.exists()
    seats = Counter(Seat.objects.values_list("user_id", flat=True))
    assert seats == Counter({user.pk: 1 for user in users})
    in_matches = Counter(
        user_id
        for m in Match.objects.all()
        for user_id in m.players.values_list("id", flat=True)
    )
    assert in_matches == seats
    assert Match.objects.count() == Table.objects.count() == len(users) // size
    for game in Game.objects.all():
        assert coins.escrow_balance(stakes.escrow_ref(game)) == STAKE * size
    for user in users:
        assert coins.wallet_of(user).balance == 1000 - STAKE
    assert coins.ledger_total() == 0


def test_cancel_racing_a_tick_either_seats_or_removes_the_player():
    for _ in range(5):
        a, b = UserFactory(), UserFactory()
        services.pool_join(user=a, category="japanese", stake=0)
        services.pool_join(user=b, category="japanese", stake=0)

        def cancel(a=a):
            try:
                services.pool_cancel(user=a)
            except NotWaiting:
                return "too late"
            return "cancelled"

        matches, outcome = at_once(services.match_tick, cancel)

        seated = Seat.objects.filter(user=a).exists()
        assert (outcome, seated) in {("cancelled", False), ("too late", True)}
        assert len(matches) == int(seated)
        assert not PoolEntry.objects.filter(user=a).exists()
        PoolEntry.objects.filter(user=b).delete()


def test_a_cancel_while_the_tick_seats_the_player_comes_too_late(monkeypatch):
    a, b = UserFactory(), UserFactory()
    services.pool_join(user=a, category="japanese", stake=0)
    services.pool_join(user=b, category="japanese", stake=0)
    seating = threading.Event()
    seat = services._seat

    def slow_seat(*args, **kwargs):
        match = seat(*args, **kwargs)
        seating.set()
        time.sleep(0.5)  # still in the transaction: the entries are locked
        return match

    monkeypatch.setattr(services, "_seat", slow_seat)

    def cancel():
        assert seating.wait(timeout=10)
        try:
            services.pool_cancel(user=a)
        except NotWaiting:
            return "too late"
        return "cancelled"

    matches, outcome = at_once(services.match_tick, cancel)

    assert (len(matches), outcome) == (1, "too late")
    assert Seat.objects.filter(user=a).count() == 1
