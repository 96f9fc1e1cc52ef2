"""A ledger line names the game or tournament its coins went to, in words
with a link, on the player's wallet page and in the coins admin (not
``game:12``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from coins import services as coins
from coins.models import Account
from tests.factories import StaffUserFactory
from tests.games.helpers import start_game
from tests.tournaments.support import make_tournament, players, register_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def staked():
    """A player who paid a tournament's entry fee and staked on a game."""
    (player,) = players(1)
    tournament = make_tournament("japanese", name="Tbilisi Open", entry_fee=100)
    register_all(tournament, [player])
    game = start_game("japanese", people=1)
    coins.escrow_stake(user=player, ref=game.escrow_ref, amount=30, key="stake")
    return player, tournament, game


def named_links(tournament, game) -> list[str]:
    return [
        f'<a href="/tournaments/{tournament.pk}/">Tournament “Tbilisi Open”</a>',
        f'<a href="/tables/{game.table_id}/">Game {game.pk} at table '
        f"{game.table_id}</a>",
    ]


def test_the_wallet_page_names_and_links_them(client, staked):
    player, tournament, game = staked
    client.force_login(player)

    page = client.get(reverse("coins:wallet")).content.decode()

    for link in named_links(tournament, game):
        assert link in page
    assert f"game:{game.pk}" not in page
    assert f"tournament:{tournament.pk}" not in page


def test_the_coins_admin_names_and_links_them(staked):
    player, tournament, game = staked
    client = Client()
    client.force_login(StaffUserFactory())
    wallet = Account.objects.get(kind=Account.Kind.WALLET, owner=player)

    entries = client.get(reverse("admin:coins_entry_changelist")).content.decode()
    account = client.get(
        reverse("admin:coins_account_change", args=[wallet.pk])
    ).content.decode()

    for link in named_links(tournament, game):
        assert link in entries
        assert link in account
