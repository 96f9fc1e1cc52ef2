"""The players, leaderboard and rating history endpoints."""

import pytest
from django.core.management import call_command

from accounts import services as account_services
from games.rated import rated_result
from ratings import services
from ratings.models import Rating
from tests.factories import UserFactory
from tests.ratings.helpers import rated, resigned_match

pytestmark = pytest.mark.django_db


def test_players_are_listed_and_searched(api_client):
    nino = UserFactory(username="nino")
    UserFactory(username="giorgi")
    account_services.profile_update(user=nino, display_name="Tamar", language="")

    body = api_client.get("/api/v1/players/").json()
    assert body["count"] == 2
    assert [p["username"] for p in body["results"]] == ["giorgi", "nino"]
    assert body["results"][1] == {
        "username": "nino",
        "display_name": "Tamar",
        "url": "http://testserver/api/v1/players/nino/",
    }

    body = api_client.get("/api/v1/players/", {"search": "tam"}).json()
    assert [p["username"] for p in body["results"]] == ["nino"]
    body = api_client.get("/api/v1/players/", {"search": "zzz"}).json()
    assert body["count"] == 0


def test_a_player_with_ratings_per_category(api_client):
    rated(1700)
    user = rated(1600, username="nino", games=4)
    Rating.objects.create(user=user, category="japanese", rating=1450, games=40)

    response = api_client.get("/api/v1/players/nino/")

    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "nino"
    assert body["ratings"] == [
        {
            "category": "joker",
            "rating": 1600,
            "rank": 2,
            "games": 4,
            "peak": 1600,
            "provisional": True,
        },
        {
            "category": "japanese",
            "rating": 1450,
            "rank": 1,
            "games": 40,
            "peak": 1500,
            "provisional": False,
        },
    ]
    assert api_client.get("/api/v1/players/nobody/").status_code == 404


def test_the_leaderboard_is_paginated_with_ranks(api_client):
    for n, rating in enumerate((1800, 1700, 1700, 1600, 1500)):
        rated(rating, username=f"p{n}")
    rated(2000, category="japanese")

    first = api_client.get("/api/v1/ratings/joker/", {"page_size": 2}).json()
    assert first["count"] == 5
    assert [(r["rank"], r["username"], r["rating"]) for r in first["results"]] == [
        (1, "p0", 1800),
        (2, "p1", 1700),
    ]
    second = api_client.get(first["next"]).json()
    assert [(r["rank"], r["username"]) for r in second["results"]] == [
        (2, "p2"),
        (4, "p3"),
    ]
    assert set(second["results"][0]) == {
        "rank",
        "username",
        "display_name",
        "rating",
        "games",
        "peak",
        "provisional",
    }
    third = api_client.get(second["next"]).json()
    assert [(r["rank"], r["username"]) for r in third["results"]] == [(5, "p4")]

    everyone = api_client.get("/api/v1/ratings/joker/").json()["results"]
    assert [r["rank"] for r in everyone] == [1, 2, 2, 4, 5]
    assert api_client.get("/api/v1/ratings/joker-pairs/").json()["count"] == 0
    assert api_client.get("/api/v1/ratings/chess/").status_code == 404


def test_rating_history_newest_first(api_client):
    a, b = UserFactory(username="nino"), UserFactory()
    games = []
    for loser in (1, 0):
        game = resigned_match([a, b], loser=loser)
        services.rating_apply_game(rated_result(game.pk))
        games.append(game)

    response = api_client.get("/api/v1/players/nino/ratings/japanese/history/")

    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["game"] for r in results] == [games[1].pk, games[0].pk]
    assert results[1] | {"at": None} == {
        "game": games[0].pk,
        "at": None,
        "before": 1500,
        "after": 1520,
        "delta": 20,
    }
    assert results[0]["before"] == 1520

    url = "/api/v1/players/nino/ratings/joker/history/"
    assert api_client.get(url).json()["count"] == 0
    url = "/api/v1/players/nino/ratings/chess/history/"
    assert api_client.get(url).status_code == 404
    url = "/api/v1/players/nobody/ratings/joker/history/"
    assert api_client.get(url).status_code == 404


def test_the_endpoints_are_read_only(api_client, user):
    api_client.force_authenticate(user)
    assert api_client.post("/api/v1/players/", {}).status_code == 405
    assert api_client.post("/api/v1/ratings/joker/", {}).status_code == 405


def test_the_schema_documents_the_endpoints(tmp_path):
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(tmp_path / "schema.yml"),
    )
    schema = (tmp_path / "schema.yml").read_text()
    for path in (
        "/api/v1/players/:",
        "/api/v1/players/{username}/:",
        "/api/v1/ratings/{category}/:",
        "/api/v1/players/{username}/ratings/{category}/history/:",
    ):
        assert path in schema
    assert "- joker-nines" in schema  # the categories are an enum


def test_the_schema_endpoint_lists_them(api_client):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    leaderboard = schema["paths"]["/api/v1/ratings/{category}/"]["get"]
    names = {p["name"] for p in leaderboard["parameters"]}
    assert names == {"category", "page", "page_size"}
    players = schema["paths"]["/api/v1/players/"]["get"]
    assert "search" in {p["name"] for p in players["parameters"]}
