"""The operators' ledger: read-only lists, and grants and removals that go
through the service."""

from __future__ import annotations

import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from coins import services
from coins.models import Account, Entry
from tests.factories import StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:coins_account_changelist")


@pytest.fixture
def operator(client, settings):
    settings.PULKA_COINS_WELCOME = 1000
    staff = StaffUserFactory()
    client.force_login(staff)
    return staff


def wallets_of(*users):
    return [services.wallet_of(user) for user in users]


def ask(client, action, accounts):
    """Choose the action on the accounts; return the form it shows."""
    response = client.post(
        CHANGELIST,
        {"action": action, ACTION_CHECKBOX_NAME: [a.pk for a in accounts]},
    )
    assert response.status_code == 200
    return response


def confirm(client, action, accounts, form_page, **fields):
    key = re.search(r'name="key" value="([^"]+)"', form_page.content.decode())[1]
    data = {
        "action": action,
        ACTION_CHECKBOX_NAME: [a.pk for a in accounts],
        "apply": "yes",
        "key": key,
        **fields,
    }
    return client.post(CHANGELIST, data, follow=True)


def test_lists_open_and_search_and_filter(client, operator):
    alice = UserFactory(username="alice")
    wallets_of(alice, UserFactory(username="bob"))
    services.escrow_stake(user=alice, ref="game:3", amount=10, key="s")

    found = client.get(CHANGELIST, {"q": "alice"}).content.decode()
    escrows = client.get(CHANGELIST, {"kind__exact": "table_escrow"}).content.decode()
    entries = client.get(reverse("admin:coins_entry_changelist"))
    detail = client.get(
        reverse("admin:coins_account_change", args=[services.wallet_of(alice).pk])
    )

    assert "alice" in found and "bob" not in found
    assert "game:3" in escrows and "alice" not in escrows
    assert entries.status_code == 200
    assert detail.status_code == 200 and "game:3" in detail.content.decode()


def test_grant_coins_asks_then_grants_through_the_service(client, operator):
    alice, bob = UserFactory(), UserFactory()
    wallets = wallets_of(alice, bob)

    page = ask(client, "grant_coins", wallets)
    assert b"It is never money." in page.content
    response = confirm(
        client, "grant_coins", wallets, page, amount="250", reason="spring event"
    )

    assert response.status_code == 200
    assert b"2 wallets adjusted." in response.content
    assert [services.wallet_of(u).balance for u in (alice, bob)] == [1250, 1250]
    grants = Entry.objects.filter(reason="admin_grant")
    assert grants.count() == 2
    assert {(e.created_by, e.memo, e.amount) for e in grants} == {
        (operator, "spring event", 250)
    }
    assert services.ledger_total() == 0


def test_the_same_form_sent_twice_grants_once(client, operator):
    (wallet,) = wallets_of(UserFactory())
    page = ask(client, "grant_coins", [wallet])

    for _ in range(2):
        confirm(client, "grant_coins", [wallet], page, amount="5", reason="oops")

    assert Entry.objects.filter(reason="admin_grant").count() == 1
    assert Account.objects.get(pk=wallet.pk).balance == 1005


def test_remove_coins_and_refuse_to_remove_more_than_held(client, operator):
    alice, bob = UserFactory(), UserFactory()
    wallets = wallets_of(alice, bob)
    services.escrow_stake(user=bob, ref="game:1", amount=900, key="s")

    page = ask(client, "remove_coins", wallets)
    response = confirm(
        client, "remove_coins", wallets, page, amount="300", reason="cheating"
    )

    content = response.content.decode()
    assert "1 wallet adjusted." in content
    assert "has only 100 coins; nothing removed." in content
    assert [services.wallet_of(u).balance for u in (alice, bob)] == [700, 100]
    (removal,) = Entry.objects.filter(reason="admin_remove")
    assert (removal.created_by, removal.credit.kind) == (operator, "grants")
    assert services.ledger_total() == 0


def test_an_invalid_form_is_shown_again_and_changes_nothing(client, operator):
    (wallet,) = wallets_of(UserFactory())
    page = ask(client, "grant_coins", [wallet])

    response = confirm(client, "grant_coins", [wallet], page, amount="0", reason="")

    assert response.status_code == 200
    assert b'name="apply"' in response.content
    assert not Entry.objects.filter(reason="admin_grant").exists()


def test_non_wallets_are_left_alone(client, operator):
    (wallet,) = wallets_of(UserFactory())
    mint = services.mint_account()

    page = ask(client, "grant_coins", [wallet, mint])
    assert b"1 selected account is not a wallet" in page.content
    confirm(client, "grant_coins", [wallet, mint], page, amount="1", reason="x")
    assert Entry.objects.filter(reason="admin_grant").count() == 1

    only_mint = client.post(
        CHANGELIST,
        {"action": "grant_coins", ACTION_CHECKBOX_NAME: [mint.pk]},
        follow=True,
    )
    assert b"wallets only" in only_mint.content


def test_the_ledger_cannot_be_edited_in_the_admin(client, operator):
    (wallet,) = wallets_of(UserFactory())
    entry = Entry.objects.get()

    assert client.get(reverse("admin:coins_entry_add")).status_code == 403
    assert client.get(reverse("admin:coins_account_add")).status_code == 403
    response = client.post(
        reverse("admin:coins_account_change", args=[wallet.pk]), {"balance": 10**9}
    )
    assert response.status_code == 403
    response = client.post(
        reverse("admin:coins_entry_delete", args=[entry.pk]), {"post": "yes"}
    )
    assert response.status_code == 403
    assert Account.objects.get(pk=wallet.pk).balance == 1000
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_staff_without_the_permission_cannot_adjust(client, settings):
    from django.contrib.auth.models import Permission

    settings.PULKA_COINS_WELCOME = 1000
    clerk = UserFactory(is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_account"))
    client.force_login(clerk)
    (wallet,) = wallets_of(UserFactory())

    response = client.post(
        CHANGELIST,
        {
            "action": "grant_coins",
            ACTION_CHECKBOX_NAME: [wallet.pk],
            "apply": "yes",
            "amount": "5",
            "reason": "x",
            "key": "7b4f7c4e-4d4b-4b7e-9c59-0a7f0f3f2e11",
        },
    )

    assert response.status_code in (200, 302)
    assert not Entry.objects.filter(reason="admin_grant").exists()
    assert b"grant_coins" not in client.get(CHANGELIST).content
