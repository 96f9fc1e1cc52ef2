"""/api/v1/wallet/: a player's own coins, and nobody else's."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from coins import services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_players(settings):
    settings.PULKA_COINS_WELCOME = 1000
    alice, bob = UserFactory(), UserFactory()
    services.escrow_stake(user=alice, ref="game:41", amount=100, key="alice-41")
    services.escrow_stake(user=bob, ref="game:99", amount=333, key="bob-99")
    services.escrow_payout(ref="game:99", shares={bob.pk: 333}, key_prefix="p99")
    return alice, bob


@pytest.mark.parametrize("url", ["/api/v1/wallet/", "/api/v1/wallet/entries/"])
def test_anonymous_is_refused(api_client, url):
    response = api_client.get(url)

    assert response.status_code == 401


def test_the_wallet_is_the_requesting_players(api_client, two_players):
    alice, _ = two_players
    api_client.force_authenticate(alice)

    response = api_client.get("/api/v1/wallet/")

    assert response.status_code == 200
    body = response.json()
    assert body["balance"] == 900
    assert body["coin"] == "Domino Coin"
    assert "never money" in body["notice"]


def test_entries_show_only_ones_own_ledger(api_client, two_players):
    alice, bob = two_players
    token = Token.objects.create(user=alice)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")

    response = api_client.get("/api/v1/wallet/entries/")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    stake, welcome = body["results"]
    assert stake["reason"] == "stake"
    assert (stake["change"], stake["balance_after"]) == (-100, 900)
    assert (stake["counterparty"], stake["ref"]) == ("table_escrow", "game:41")
    assert (welcome["reason"], welcome["change"]) == ("grant", 1000)
    text = response.content.decode()
    assert "game:99" not in text and "333" not in text
    assert bob.username not in text
    assert "owner" not in text and "idempotency" not in text


def test_no_parameter_reaches_another_wallet(api_client, two_players):
    alice, bob = two_players
    api_client.force_authenticate(alice)

    for query in (f"?user={bob.pk}", f"?owner={bob.pk}", f"?wallet={bob.pk}"):
        assert api_client.get(f"/api/v1/wallet/{query}").json()["balance"] == 900
        entries = api_client.get(f"/api/v1/wallet/entries/{query}").json()
        assert entries["count"] == 2
    assert api_client.get(f"/api/v1/wallet/{bob.pk}/").status_code == 404


def test_entries_are_paginated(api_client, settings):
    user = UserFactory()
    for n in range(60):
        services.coins_grant(user=user, amount=1, reason="grant", key=f"g{n}")
    api_client.force_authenticate(user)

    first = api_client.get("/api/v1/wallet/entries/").json()
    second = api_client.get(first["next"]).json()

    assert first["count"] == 61
    assert len(first["results"]) == 50 and len(second["results"]) == 11
    assert second["next"] is None


def test_a_new_player_sees_the_welcome_coins(api_client, settings):
    settings.PULKA_COINS_WELCOME = 1000
    user = UserFactory()
    api_client.force_authenticate(user)

    assert api_client.get("/api/v1/wallet/").json()["balance"] == 1000


def test_the_schema_documents_the_wallet_and_validates(api_client, tmp_path):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()

    assert {"/api/v1/wallet/", "/api/v1/wallet/entries/"} <= set(schema["paths"])
    entry = schema["components"]["schemas"]["WalletEntry"]["properties"]
    assert {"change", "balance_after", "counterparty", "reason"} <= set(entry)
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(tmp_path / "schema.yml"),
    )
