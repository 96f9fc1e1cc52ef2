"""Racing requests against one tournament, on PostgreSQL's row locks: two
beat processes starting it at once, a crowd registering for the last places."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection

from coins import services as coins
from common.errors import ApplicationError
from tournaments import services
from tournaments.models import Board, Entry, Round

from .support import make_tournament, players, register_all

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]


def at_once(calls: list) -> list:
    """Run the calls on one thread each, released together; each call's
    result or exception, in order."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # returned to the test, which checks them
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_beats_starting_the_same_tournament_start_it_once():
    tournament = make_tournament(rounds=2)
    register_all(tournament, players(6))
    now = tournament.starts_at + timedelta(seconds=1)

    outcomes = at_once(
        [lambda: services.tournament_start_due(now=now) for _ in range(4)]
        + [
            lambda: services.tournament_start(tournament_id=tournament.pk, now=now)
            for _ in range(4)
        ]
    )

    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    started = [o for o in outcomes if o in ("started", {tournament.pk: "started"})]
    assert len(started) == 1, outcomes
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Board.objects.filter(round__tournament=tournament).count() == 3


def test_a_crowd_registering_for_the_last_places_fills_them_exactly():
    tournament = make_tournament(min_players=2, max_players=5, entry_fee=100)
    crowd = players(12)
    total = coins.ledger_total()

    outcomes = at_once(
        [
            lambda user=user: services.tournament_register(
                tournament_id=tournament.pk, user=user
            )
            for user in crowd
        ]
    )

    unexpected = [
        o
        for o in outcomes
        if isinstance(o, Exception)
        and not (isinstance(o, ApplicationError) and o.code == "full")
    ]
    assert unexpected == []
    registered = Entry.objects.filter(
        tournament=tournament, status=Entry.Status.REGISTERED
    )
    assert registered.count() == 5
    pool = coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL)
    assert pool == 500
    paid = {e.user_id for e in registered}
    for user in crowd:
        expected = 900 if user.pk in paid else 1000
        assert coins.wallet_of(user).balance == expected
    assert coins.ledger_total() == total


def test_the_same_player_registering_twice_at_once_pays_once():
    tournament = make_tournament(entry_fee=100)
    (alice,) = players(1)

    outcomes = at_once(
        [
            lambda: services.tournament_register(
                tournament_id=tournament.pk, user=alice
            )
            for _ in range(4)
        ]
    )

    refusals = [o for o in outcomes if isinstance(o, ApplicationError)]
    assert len(refusals) == 3 and {r.code for r in refusals} == {"registered"}
    assert coins.wallet_of(alice).balance == 900
