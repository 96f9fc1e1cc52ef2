"""Personal API tokens: a player creates one on their profile page, sees it
once, uses it on the API, replaces or revokes it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import UserFactory

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
