"""The REST API root, the current-user endpoint and the OpenAPI pages."""

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


def test_api_root_lists_entry_points(api_client):
    response = api_client.get("/api/v1/")

    assert response.status_code == 200
    links = response.json()
    assert set(links) == {
        "me",
        "players",
        "leaderboard",
        "games",
        "wallet",
        "pools",
        "tournaments",
        "friends",
        "invitations",
        "schema",
        "docs",
    }
    assert links["me"] == "http://testserver/api/v1/me/"
    assert links["games"] == "http://testserver/api/v1/games/"
    for url in links.values():
        assert api_client.get(url).status_code in (200, 401), url


def test_me_requires_authentication(api_client):
    response = api_client.get("/api/v1/me/")

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Token"


def test_me_with_session(client, user):
    client.force_login(user)

    response = client.get("/api/v1/me/", HTTP_ACCEPT="application/json")

    assert response.status_code == 200
    assert response.json()["username"] == user.username
    assert response.json()["id"] == user.id


def test_me_with_token(api_client, user):
    token = Token.objects.create(user=user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")

    response = api_client.get("/api/v1/me/")

    assert response.status_code == 200
    assert response.json()["username"] == user.username


def test_me_rejects_a_bad_token(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    assert api_client.get("/api/v1/me/").status_code == 401


def test_schema_describes_the_api(api_client):
    response = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json")

    assert response.status_code == 200
    schema = response.json()
    assert schema["info"]["title"] == "Pulka API"
    assert "/api/v1/me/" in schema["paths"]


def test_docs_page_uses_bundled_assets(client):
    response = client.get(reverse("api:docs"))

    assert response.status_code == 200
    content = response.content.decode()
    assert "swagger-ui" in content
    # Served from drf-spectacular-sidecar, not from a CDN.
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in content
    assert "cdn.jsdelivr.net" not in content


def test_browsable_api_login_page(client):
    response = client.get("/api/v1/auth/login/")

    assert response.status_code == 200


def test_schema_generates_without_warnings(tmp_path):
    # --fail-on-warn turns drf-spectacular's guesses (a view without a
    # serializer, an untyped field) into errors, so they are fixed when added.
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(tmp_path / "schema.yml"),
    )

    assert "/api/v1/me/" in (tmp_path / "schema.yml").read_text()


def test_me_gives_the_display_name_the_ratings_and_the_wallet(api_client, user):
    from accounts.models import Profile
    from coins import services as coins
    from ratings.models import Rating

    Profile.objects.update_or_create(user=user, defaults={"display_name": "Nino"})
    Rating.objects.create(
        user=user, category="japanese", rating=1612, peak=1650, games=25
    )
    coins.coins_grant(user=user, amount=40, key="me-test")
    balance = coins.wallet_of(user).balance
    api_client.force_authenticate(user)

    body = api_client.get("/api/v1/me/").json()

    assert body["display_name"] == "Nino"
    assert body["wallet"] == {"balance": balance, "coin": "Domino Coin"}
    (japanese,) = body["ratings"]
    assert japanese["category"] == "japanese"
    assert (japanese["rating"], japanese["games"]) == (1612, 25)
    assert japanese["provisional"] is False


def test_the_schema_documents_me(api_client):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()

    me = schema["paths"]["/api/v1/me/"]["get"]["responses"]["200"]
    ref = me["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert {"display_name", "ratings", "wallet"} <= set(
        schema["components"]["schemas"][ref]["properties"]
    )


def test_a_json_login_is_told_what_the_login_page_is_for(user):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)

    response = client.post(
        "/api/v1/auth/login/",
        {"username": user.username, "password": "secret"},
        content_type="application/json",
    )

    assert response.status_code == 415
    body = response.json()
    assert body["code"] == "unsupported_media_type"
    assert "browsable API" in body["detail"]
    assert "Authorization: Token" in body["detail"]
    assert "_auth_user_id" not in client.session
