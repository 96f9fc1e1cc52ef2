"""The wallet page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.services import profile_update
from coins import services
from coins.models import Entry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def coin_settings(settings):
    settings.PULKA_COINS_WELCOME = 1000
    settings.PULKA_COINS_REFILL_TO = 500


def test_the_wallet_needs_a_signed_in_player(client):
    response = client.get(reverse("coins:wallet"))

    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_the_wallet_shows_balance_ledger_and_that_it_is_not_money(client):
    user, other = UserFactory(), UserFactory()
    services.escrow_stake(user=user, ref="game:8", amount=120, key="s")
    services.escrow_stake(user=other, ref="game:77", amount=345, key="o")
    client.force_login(user)

    response = client.get(reverse("coins:wallet"))

    assert response.status_code == 200
    content = response.content.decode()
    assert "It is never money." in content
    assert "It cannot be bought, sold or paid out." in content
    assert '<strong id="balance">880</strong>' in content
    assert "game:8" in content
    assert ">-120<" in content
    assert "game:77" not in content and ">-345<" not in content
    assert 'href="/coins/"' in content  # the navigation link


def test_opening_the_wallet_refills_a_low_one_once(client):
    user = UserFactory()
    services.escrow_stake(user=user, ref="game:8", amount=900, key="s")
    client.force_login(user)

    client.get(reverse("coins:wallet"))
    client.get(reverse("coins:wallet"))

    assert services.wallet_of(user).balance == 500
    assert Entry.objects.filter(reason="refill").count() == 1


def test_the_ledger_is_paginated(client):
    user = UserFactory()
    for n in range(30):
        services.coins_grant(user=user, amount=1, reason="grant", key=f"g{n}")
    client.force_login(user)

    first = client.get(reverse("coins:wallet")).content.decode()
    second = client.get(reverse("coins:wallet") + "?page=2").content.decode()

    assert "Page 1 of 2" in first and "Page 2 of 2" in second
    assert second.count("<tr>") == 1 + 6  # the header and the six oldest


def test_the_wallet_speaks_the_players_language(client):
    user = UserFactory()
    profile_update(user=user, display_name="", language="ru")
    client.force_login(user)

    content = client.get(reverse("coins:wallet")).content.decode()

    assert '<html lang="ru">' in content
    assert "Domino Coin — виртуальная монета для игры." in content
