"""Addresses no view can answer: a NUL character anywhere in the path or the
query is a 400, an API address that names nothing is the API's JSON 404,
and whatever else is refused under /api/ before or beside the API's views
is JSON too, never the site's HTML page or a 500."""

from __future__ import annotations

import pytest
from django.test import Client

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


def json_refusal(response, status: int, code: str) -> dict:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == code and body["detail"]
    return body


def test_too_many_query_fields_under_the_api_is_a_json_400(client):
    # Django refuses more than DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000) before
    # any view, as a SuspiciousOperation.
    query = "&".join(f"f{n}=1" for n in range(1200))
    json_refusal(client.get(f"/api/v1/players/?{query}"), 400, "bad_request")
    # A page keeps Django's own 400 page.
    page = client.get(f"/players/?{query}")
    assert page.status_code == 400
    assert not page["Content-Type"].startswith("application/json")


def test_a_host_that_is_not_served_is_a_json_400_under_the_api(client):
    json_refusal(
        client.get("/api/v1/players/", HTTP_HOST="evil.example"), 400, "bad_request"
    )


def test_the_browsable_api_pages_refuse_in_json_too():
    # Plain Django views under /api/: the login page's CSRF check, and the
    # logout view, which takes POST only.
    strict = Client(enforce_csrf_checks=True)
    json_refusal(
        strict.post("/api/v1/auth/login/", {"username": "a", "password": "b"}),
        403,
        "permission_denied",
    )
    refused = json_refusal(
        Client().get("/api/v1/auth/logout/"), 405, "method_not_allowed"
    )
    assert refused["detail"]
    assert Client().get("/api/v1/auth/logout/")["Allow"] == "POST, OPTIONS"


def test_the_browsable_api_still_answers_a_browser_in_html(client):
    response = client.get("/api/v1/games/999999/", HTTP_ACCEPT="text/html")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
