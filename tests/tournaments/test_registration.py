"""Registering and withdrawing: the entry fee moves through the ledger, and
every refusal leaves wallets, pool and entries as they were."""

from __future__ import annotations

from datetime import timedelta

import pytest

from coins import services as coins
from common.errors import ApplicationError
from tournaments import services
from tournaments.models import Entry

from .support import make_tournament, players

pytestmark = pytest.mark.django_db


def balance(user) -> int:
    return coins.wallet_of(user).balance


def pool(tournament) -> int:
    return coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL)


def refused(code: str, call) -> None:
    with pytest.raises(ApplicationError) as caught:
        call()
    assert caught.value.code == code, caught.value


def test_registering_pays_the_fee_into_the_pool():
    (alice,) = players(1, coins_each=250)
    tournament = make_tournament(entry_fee=100)

    entry = services.tournament_register(tournament_id=tournament.pk, user=alice)

    assert entry.status == Entry.Status.REGISTERED
    assert balance(alice) == 150
    assert pool(tournament) == 100


def test_a_second_registration_is_refused_and_charges_nothing():
    (alice,) = players(1, coins_each=250)
    tournament = make_tournament(entry_fee=100)
    services.tournament_register(tournament_id=tournament.pk, user=alice)

    refused(
        "registered",
        lambda: services.tournament_register(tournament_id=tournament.pk, user=alice),
    )

    assert balance(alice) == 150
    assert pool(tournament) == 100
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_too_few_coins_is_refused_and_leaves_no_entry():
    (poor,) = players(1, coins_each=99)
    tournament = make_tournament(entry_fee=100)

    refused(
        "few_coins",
        lambda: services.tournament_register(tournament_id=tournament.pk, user=poor),
    )

    assert balance(poor) == 99
    assert pool(tournament) == 0
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_a_full_tournament_takes_nobody_more():
    first, second, third = players(3)
    tournament = make_tournament(min_players=2, max_players=2)
    services.tournament_register(tournament_id=tournament.pk, user=first)
    services.tournament_register(tournament_id=tournament.pk, user=second)

    refused(
        "full",
        lambda: services.tournament_register(tournament_id=tournament.pk, user=third),
    )
    assert balance(third) == 1000

    # A withdrawal frees the place again.
    services.tournament_withdraw(tournament_id=tournament.pk, user=first)
    services.tournament_register(tournament_id=tournament.pk, user=third)
    assert balance(third) == 900


def test_registration_closes_at_the_start_time():
    (alice,) = players(1)
    tournament = make_tournament(starts_in=timedelta(minutes=5))

    refused(
        "closed",
        lambda: services.tournament_register(
            tournament_id=tournament.pk,
            user=alice,
            now=tournament.starts_at + timedelta(seconds=1),
        ),
    )
    assert balance(alice) == 1000


def test_withdrawing_before_the_start_gives_the_fee_back():
    (alice,) = players(1, coins_each=300)
    tournament = make_tournament(entry_fee=100)
    services.tournament_register(tournament_id=tournament.pk, user=alice)

    entry = services.tournament_withdraw(tournament_id=tournament.pk, user=alice)

    assert entry.status == Entry.Status.WITHDRAWN
    assert balance(alice) == 300
    assert pool(tournament) == 0


def test_coming_back_after_withdrawing_pays_again_and_refunds_again():
    (alice,) = players(1, coins_each=300)
    tournament = make_tournament(entry_fee=100)
    for _ in range(3):
        services.tournament_register(tournament_id=tournament.pk, user=alice)
        assert balance(alice) == 200
        services.tournament_withdraw(tournament_id=tournament.pk, user=alice)
        assert balance(alice) == 300
    services.tournament_register(tournament_id=tournament.pk, user=alice)

    entry = Entry.objects.get(tournament=tournament, user=alice)
    assert entry.registrations == 4
    assert balance(alice) == 200
    assert pool(tournament) == 100


def test_withdrawing_without_an_entry_is_refused():
    (alice,) = players(1)
    tournament = make_tournament()

    refused(
        "not_registered",
        lambda: services.tournament_withdraw(tournament_id=tournament.pk, user=alice),
    )


def test_a_free_tournament_moves_no_coins():
    (alice,) = players(1, coins_each=0)
    tournament = make_tournament(entry_fee=0)

    services.tournament_register(tournament_id=tournament.pk, user=alice)

    assert balance(alice) == 0
    assert Entry.objects.get(tournament=tournament).status == Entry.Status.REGISTERED


def test_a_banned_player_cannot_register():
    (alice,) = players(1)
    alice.is_active = False
    alice.save()
    tournament = make_tournament()

    refused(
        "inactive",
        lambda: services.tournament_register(tournament_id=tournament.pk, user=alice),
    )


def test_unknown_tournament():
    (alice,) = players(1)
    refused(
        "not_found",
        lambda: services.tournament_register(tournament_id=987654, user=alice),
    )
