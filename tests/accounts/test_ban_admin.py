"""Bans added from the bans list go through ``accounts.bans.user_ban``:
the account is closed and the operator recorded; bad input changes
nothing and says why."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Ban
from tests.factories import StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db

ADD = reverse("admin:accounts_ban_add")
CHANGELIST = reverse("admin:accounts_ban_changelist")


@pytest.fixture
def operator():
    return StaffUserFactory(is_superuser=True)


@pytest.fixture
def admin_client(operator):
    client = Client()
    client.force_login(operator)
    return client


def test_the_bans_list_offers_add(admin_client):
    page = admin_client.get(CHANGELIST).content.decode()

    assert f'href="{ADD}"' in page


def test_a_ban_added_from_the_list_closes_the_account(admin_client, operator):
    player = UserFactory()

    response = admin_client.post(
        ADD, {"user": player.pk, "reason": "abusive chat", "_save": "Save"}
    )

    assert response.status_code == 302
    player.refresh_from_db()
    assert not player.is_active
    (ban,) = Ban.objects.filter(user=player)
    assert (ban.by, ban.reason) == (operator, "abusive chat")


@pytest.mark.parametrize(
    ("who", "reason", "error"),
    [
        ("player", "   ", "This field is required."),
        ("self", "testing", "Operators cannot ban themselves."),
    ],
)
def test_bad_input_changes_nothing_and_says_why(
    admin_client, operator, who, reason, error
):
    player = UserFactory() if who == "player" else operator

    response = admin_client.post(
        ADD, {"user": player.pk, "reason": reason, "_save": "Save"}
    )

    assert response.status_code == 200
    assert error in response.content.decode()
    player.refresh_from_db()
    assert player.is_active
    assert not Ban.objects.exists()


def test_a_banned_player_is_not_banned_twice(admin_client):
    player = UserFactory()
    admin_client.post(ADD, {"user": player.pk, "reason": "first", "_save": "Save"})

    response = admin_client.post(
        ADD, {"user": player.pk, "reason": "second", "_save": "Save"}
    )

    assert "This player is banned already." in response.content.decode()
    assert list(Ban.objects.values_list("reason", flat=True)) == ["first"]


def test_staff_without_the_ban_permission_cannot_add(operator):
    clerk = StaffUserFactory(is_superuser=False)
    client = Client()
    client.force_login(clerk)

    assert client.get(ADD).status_code == 403
