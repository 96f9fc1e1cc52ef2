"""The ledger under concurrent writers, on PostgreSQL.

Each thread has its own database connection (Django gives every thread one)
and closes it when done.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from coins import services
from coins.errors import EscrowMismatch, InsufficientCoins, KeyReused
from coins.models import Account, Entry
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]

# Refusals a service may answer with under contention; anything else (a
# deadlock, a lost update caught by a constraint) fails the test.
REFUSALS = (InsufficientCoins, EscrowMismatch, KeyReused)


@pytest.fixture(autouse=True)
def coin_settings(settings):
    settings.PULKA_COINS_WELCOME = 1000


def in_threads(calls, workers: int):
    """Run the calls on ``workers`` threads; return each call's result or
    exception, in order."""

    def run(call):
        try:
            return call()
        except Exception as error:  # reported, not swallowed: see the callers
            return error
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(run, calls))


def at_once(calls):
    """Run the calls on one thread each, released together by a barrier."""
    barrier = threading.Barrier(len(calls))

    def released(call):
        def run():
            barrier.wait()
            return call()

        return run

    return in_threads([released(call) for call in calls], workers=len(calls))


def assert_books_sound():
    assert services.ledger_total() == 0
    assert services.ledger_mismatches() == []
    negative = Account.objects.filter(balance__lt=0).exclude(kind="grants")
    assert not negative.exists()


@pytest.mark.slow
def test_a_thousand_concurrent_movements_keep_the_books():
    rng = random.Random(20250301)
    users = [UserFactory() for _ in range(12)]
    wallets = {user.pk: services.wallet_of(user) for user in users}
    refs = [f"game:{n}" for n in range(15)]

    def stake(n):
        user, ref = rng.choice(users), rng.choice(refs)
        amount = rng.randint(1, 300)
        return lambda: services.escrow_stake(
            user=user, ref=ref, amount=amount, key=f"stake:{n}"
        )

    def payout(n):
        ref, winners = rng.choice(refs), rng.sample(users, 2)

        def run():
            held = services.escrow_balance(ref)
            first = held // 2
            shares = {winners[0].pk: first, winners[1].pk: held - first}
            return services.escrow_payout(
                ref=ref, shares=shares, key_prefix=f"payout:{n}"
            )

        return run

    def refund(n):
        ref = rng.choice(refs)
        return lambda: services.escrow_refund(ref=ref, key_prefix=f"refund:{n}")

    def transfer(n):
        a, b = rng.sample(users, 2)
        amount = rng.randint(1, 200)
        return lambda: services.ledger_transfer(
            debit=wallets[a.pk],
            credit=wallets[b.pk],
            amount=amount,
            reason=Entry.Reason.TRANSFER,
            key=f"transfer:{n}",
        )

    def grant(n):
        user = rng.choice(users)
        return lambda: services.coins_grant(
            user=user, amount=rng.randint(1, 50), reason="grant", key=f"grant:{n}"
        )

    makers = [stake] * 5 + [transfer] * 3 + [payout, refund, grant]
    calls = [rng.choice(makers)(n) for n in range(900)]
    # A hundred exact repeats (the same key and movement), as a retried
    # request would send them.
    calls += rng.sample(calls, 100)
    rng.shuffle(calls)
    assert len(calls) == 1000

    results = in_threads(calls, workers=16)

    unexpected = [r for r in results if isinstance(r, Exception)]
    unexpected = [r for r in unexpected if not isinstance(r, REFUSALS)]
    assert unexpected == []
    outcomes = Counter(type(r).__name__ for r in results)
    # Most movements went through; the refusals are the legitimate ones.
    assert outcomes["Entry"] > 500, outcomes
    assert_books_sound()
    keys = Entry.objects.values_list("idempotency_key", flat=True)
    assert len(keys) == len(set(keys))


def test_two_stakes_beyond_the_balance_exactly_one_succeeds():
    for round_ in range(10):
        user = UserFactory()
        services.wallet_of(user)

        results = at_once(
            [
                lambda user=user, ref=ref, key=f"{round_}:{ref}": services.escrow_stake(
                    user=user, ref=ref, amount=600, key=key
                )
                for ref in ("game:1", "game:2")
            ]
        )

        assert sorted(type(r).__name__ for r in results) == [
            "Entry",
            "InsufficientCoins",
        ]
        assert services.wallet_of(user).balance == 400
    assert_books_sound()


def test_the_same_key_from_two_threads_makes_one_entry():
    alice, bob = UserFactory(), UserFactory()
    debit, credit = services.wallet_of(alice), services.wallet_of(bob)

    for n in range(10):
        results = at_once(
            [
                lambda key=f"k{n}": services.ledger_transfer(
                    debit=debit, credit=credit, amount=10, reason="transfer", key=key
                )
            ]
            * 2
        )

        assert all(isinstance(r, Entry) for r in results), results
        assert results[0].pk == results[1].pk
        assert Entry.objects.filter(idempotency_key=f"k{n}").count() == 1
    assert services.wallet_of(alice).balance == 900
    assert services.wallet_of(bob).balance == 1100
    assert_books_sound()


def test_a_new_players_wallet_opened_twice_at_once_is_welcomed_once():
    users = [UserFactory() for _ in range(5)]

    for user in users:
        results = at_once([lambda user=user: services.wallet_of(user)] * 4)

        assert all(isinstance(r, Account) for r in results), results
        assert len({r.pk for r in results}) == 1
        assert {r.balance for r in results} == {1000}
    assert Entry.objects.count() == len(users)
    assert_books_sound()


def test_the_same_payout_and_refund_from_two_threads_happen_once():
    a, b = UserFactory(), UserFactory()
    for user in (a, b):
        services.escrow_stake(user=user, ref="game:1", amount=100, key=f"1:{user.pk}")
        services.escrow_stake(user=user, ref="game:2", amount=100, key=f"2:{user.pk}")

    paid = at_once(
        [
            lambda: services.escrow_payout(
                ref="game:1", shares={a.pk: 200}, key_prefix="payout:1"
            )
        ]
        * 3
    )
    refunded = at_once(
        [lambda: services.escrow_refund(ref="game:2", key_prefix="refund:2")] * 3
    )

    assert all(isinstance(r, list) for r in paid + refunded), paid + refunded
    assert len({tuple(e.pk for e in r) for r in paid}) == 1
    assert len({tuple(e.pk for e in r) for r in refunded}) == 1
    assert services.wallet_of(a).balance == 1100
    assert services.wallet_of(b).balance == 900
    assert_books_sound()
