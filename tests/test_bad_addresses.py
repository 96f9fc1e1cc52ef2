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


def test_every_api_refusal_is_code_and_detail(client, api_client):
    from tests.factories import UserFactory

    # Not signed in.
    response = client.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    # No such object, from a view's own lookup.
    response = client.get("/api/v1/games/999999/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    # Bad input, with what is wrong with each field.
    response = client.get("/api/v1/games/", {"category": "chess"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert list(response.json()["fields"]) == ["category"]
    # A refusal of a service, with its own code.
    api_client.force_authenticate(UserFactory())
    response = api_client.post("/api/v1/pools/cancel/")
    assert (response.status_code, response.json()["code"]) == (409, "not_waiting")
    # A method the address does not take.
    response = api_client.delete("/api/v1/me/")
    assert (response.status_code, response.json()["code"]) == (
        405,
        "method_not_allowed",
    )


def test_the_schema_lists_the_refusals_of_every_operation(client):
    schema = client.get("/api/v1/schema/", {"format": "json"}).json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            assert {"400", "401", "403", "404", "409", "429"} <= codes, (path, method)
    assert "Error" in schema["components"]["schemas"]


def test_an_api_address_with_a_line_break_is_the_json_404_too(client):
    response = client.get("/api/v1/games/a%0Ab/record/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
