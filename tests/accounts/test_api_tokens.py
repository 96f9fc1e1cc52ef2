"""Personal API tokens: a player creates one on their profile page, sees it
once, uses it on the API, replaces or revokes it."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from accounts.bans import user_ban
from tests.factories import DEFAULT_PASSWORD, StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db


def signed_in() -> tuple[Client, object]:
    user = UserFactory()
    client = Client()
    client.force_login(user)
    return client, user


def token_on(page) -> str:
    found = re.search(r'class="token-key">([0-9a-f]{40})<', page.content.decode())
    assert found, "no token shown"
    return found.group(1)


def me(key: str):
    return Client().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {key}")


def test_a_new_token_is_shown_once_and_works_on_the_api():
    client, user = signed_in()
    key = token_on(client.post("/accounts/profile/token/"))

    assert me(key).status_code == 200
    assert me(key).json()["username"] == user.username
    later = client.get("/accounts/profile/").content.decode()
    assert key not in later
    assert "You have a token" in later


def test_a_replaced_token_stops_working():
    client, _ = signed_in()
    old = token_on(client.post("/accounts/profile/token/"))
    new = token_on(client.post("/accounts/profile/token/"))
    assert old != new
    assert me(old).status_code == 401
    assert me(new).status_code == 200


def test_a_revoked_token_stops_working():
    client, _ = signed_in()
    key = token_on(client.post("/accounts/profile/token/"))
    response = client.post("/accounts/profile/token/revoke/")
    assert response.status_code == 302
    assert me(key).status_code == 401
    assert "You have a token" not in client.get("/accounts/profile/").content.decode()


def test_tokens_are_made_by_a_signed_in_post_with_its_csrf_token_only():
    assert Client().post("/accounts/profile/token/").status_code == 302  # to login
    client, _ = signed_in()
    assert client.get("/accounts/profile/token/").status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(UserFactory())
    assert strict.post("/accounts/profile/token/").status_code == 403


# A password change or a deactivation ends the tokens with the sessions: a
# token taken by someone who knew the old password must not outlive it.

NEW_PASSWORD = "seven-of-clubs-trumps-42"


def test_a_password_changed_on_its_page_revokes_the_token():
    owner = StaffUserFactory()
    client = Client()
    client.force_login(owner)
    key = token_on(client.post("/accounts/profile/token/"))
    assert me(key).status_code == 200

    response = client.post(
        "/admin/password_change/",
        {
            "old_password": DEFAULT_PASSWORD,
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )

    assert response.status_code == 302, response.content
    assert me(key).status_code == 401
    assert not Token.objects.filter(user=owner).exists()


def test_a_password_an_operator_sets_revokes_the_players_token():
    client, player = signed_in()
    key = token_on(client.post("/accounts/profile/token/"))
    operator = Client()
    operator.force_login(StaffUserFactory())

    response = operator.post(
        f"/admin/auth/user/{player.pk}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 302, response.content
    assert me(key).status_code == 401


def test_a_ban_revokes_the_token():
    client, player = signed_in()
    key = token_on(client.post("/accounts/profile/token/"))

    user_ban(user=player, by=StaffUserFactory(), reason="farming")

    assert me(key).status_code == 401
    assert not Token.objects.filter(user=player).exists()


def test_other_changes_to_the_account_keep_the_token():
    client, player = signed_in()
    key = token_on(client.post("/accounts/profile/token/"))

    player.first_name = "Nino"
    player.save()
    client.post("/accounts/profile/", {"display_name": "Nino", "language": "ka"})
    client.logout()
    login = Client().post(
        "/accounts/login/",
        {"username": player.username, "password": DEFAULT_PASSWORD},
    )
    assert login.status_code == 302

    assert me(key).status_code == 200
