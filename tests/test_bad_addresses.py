"""Addresses no view can answer: a NUL character anywhere in the path or the
query is a 400, and an API address that names nothing is the API's JSON
404, never the site's HTML page or a 500."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "address",
    [
        "/api/v1/players/?search=a%00b",
        "/api/v1/players/a%00b/",
        "/api/v1/games/?a%00=1",
    ],
)
def test_a_nul_character_in_an_api_address_is_a_json_400(client, address):
    response = client.get(address)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert "NUL" in response.json()["detail"]


def test_a_nul_character_in_a_page_address_is_a_400(client):
    response = client.get("/players/a%00b/")
    assert response.status_code == 400


@pytest.mark.parametrize(
    ("method", "address"),
    [
        ("get", "/api/v1/games/abc/record/"),
        ("post", "/api/v1/tournaments/x/register/"),
        ("post", "/api/v1/tournaments/x/withdraw/"),
        ("get", "/api/v1/no-such-thing/"),
    ],
)
def test_an_api_address_that_names_nothing_is_a_json_404(client, method, address):
    response = getattr(client, method)(address)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


def test_the_api_login_pages_still_answer(client):
    assert client.get("/api/v1/auth/login/").status_code == 200
