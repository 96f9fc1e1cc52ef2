"""Quick play in the REST API: /api/v1/pools/."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from matchmaking import services
from matchmaking.grouping import window
from matchmaking.models import PoolEntry
from tests.matchmaking.helpers import player
from tests.ranked.helpers import take_coins

pytestmark = pytest.mark.django_db


def test_anyone_sees_every_pool(api_client):
    a, b = player(), player()
    services.pool_join(user=a, category="joker", stake=10)
    services.pool_join(user=b, category="joker", stake=10)

    response = api_client.get("/api/v1/pools/")

    assert response.status_code == 200
    pools = {(p["category"], p["stake"]): p for p in response.json()}
    assert len(pools) == 24
    assert pools["joker", 10]["players"] == 2
    assert pools["joker", 10]["oldest_wait"] >= 0
    assert pools["japanese", 0] == {
        "category": "japanese",
        "stake": 0,
        "players": 0,
        "oldest_wait": None,
    }


def test_a_form_encoded_join_is_refused_and_joins_nobody(api_client):
    # As a form, "stake=" would read as "no stake given" and join at the
    # default stake; the API takes JSON bodies only.
    api_client.force_authenticate(player())

    response = api_client.post(
        "/api/v1/pools/join/",
        "category=joker&stake=",
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
    assert not PoolEntry.objects.exists()


def test_join_status_and_cancel(api_client):
    user = player(1700, "joker-pairs")
    api_client.force_authenticate(user)

    joined = api_client.post(
        "/api/v1/pools/join/", {"category": "joker-pairs", "stake": 50}, format="json"
    )

    assert joined.status_code == 201
    body = joined.json()
    assert body["waiting"] is True
    assert (body["category"], body["stake"], body["rating"]) == (
        "joker-pairs",
        50,
        1700,
    )
    assert (body["players"], body["table"]) == (1, None)
    # The window starts at 100 and widens by the second: a slow machine may
    # take a moment between the join and its answer.
    assert window(0) == 100 <= body["window"] <= window(5)

    me = api_client.get("/api/v1/pools/me/").json()
    assert me["waiting"] is True and me["category"] == "joker-pairs"

    cancelled = api_client.post("/api/v1/pools/cancel/")
    assert cancelled.status_code == 200
    assert cancelled.json()["waiting"] is False
    assert not PoolEntry.objects.exists()

    again = api_client.post("/api/v1/pools/cancel/")
    assert again.status_code == 409
    assert again.json()["code"] == "not_waiting"


def test_a_second_join_is_refused_with_409(api_client):
    api_client.force_authenticate(player())
    first = api_client.post("/api/v1/pools/join/", {"category": "joker"}, format="json")
    second = api_client.post(
        "/api/v1/pools/join/", {"category": "japanese"}, format="json"
    )

    assert first.status_code == 201 and first.json()["stake"] == 0
    assert second.status_code == 409
    assert second.json()["code"] == "already_waiting"
    assert PoolEntry.objects.get().category == "joker"


def test_joining_without_the_coins_is_refused(api_client):
    user = player()
    take_coins(user, 1000)
    api_client.force_authenticate(user)

    response = api_client.post(
        "/api/v1/pools/join/", {"category": "japanese", "stake": 10}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["code"] == "few_coins"
    assert not PoolEntry.objects.exists()


@pytest.mark.parametrize(
    "data", [{"category": "chess"}, {"category": "joker", "stake": 7}, {}]
)
def test_a_bad_category_or_stake_is_a_400(api_client, data):
    api_client.force_authenticate(player())
    response = api_client.post("/api/v1/pools/join/", data, format="json")
    assert response.status_code == 400
    assert not PoolEntry.objects.exists()


def test_the_status_after_a_match_names_the_table(api_client):
    a, b = player(), player()
    services.pool_join(user=a, category="japanese", stake=0)
    services.pool_join(user=b, category="japanese", stake=0)
    [match] = services.match_tick()
    api_client.force_authenticate(a)

    me = api_client.get("/api/v1/pools/me/").json()

    assert me["waiting"] is False
    assert me["table"] == match.table_id
    assert me["url"] == f"/tables/{match.table_id}/"


def test_asking_for_the_status_keeps_the_player_in_the_pool(api_client):
    user = player()
    services.pool_join(user=user, category="japanese", stake=0)
    entry = PoolEntry.objects.get()
    api_client.force_authenticate(user)

    api_client.get("/api/v1/pools/me/")

    assert PoolEntry.objects.get().seen_at > entry.seen_at


@pytest.mark.parametrize(
    ("method", "path"),
    [("post", "join/"), ("post", "cancel/"), ("get", "me/")],
)
def test_a_player_s_endpoints_need_sign_in(api_client, method, path):
    response = getattr(api_client, method)(f"/api/v1/pools/{path}")
    assert response.status_code == 401


def test_the_schema_documents_the_pools_and_validates(api_client, tmp_path):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()

    paths = {f"/api/v1/pools/{p}" for p in ("", "join/", "cancel/", "me/")}
    assert paths <= set(schema["paths"])
    join = schema["paths"]["/api/v1/pools/join/"]["post"]
    assert {"201", "400", "409"} <= set(join["responses"])
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(tmp_path / "schema.yml"),
    )


def test_the_bots_options_of_a_join(api_client):
    user = player()
    api_client.force_authenticate(user)
    for wrong in ("maybe", 0, 1, "true", None):
        refused = api_client.post(
            "/api/v1/pools/join/", {"category": "joker", "bots": wrong}, format="json"
        )
        assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert not PoolEntry.objects.exists()

    joined = api_client.post(
        "/api/v1/pools/join/", {"category": "joker", "bots_rated": True}, format="json"
    )
    body = joined.json()
    assert joined.status_code == 201
    assert (body["bots_in"], body["bots_rated"]) == (20, True)
    entry = PoolEntry.objects.get(user=user)
    assert (entry.bots, entry.bots_rated) == (True, True)

    api_client.post("/api/v1/pools/cancel/")
    japanese = api_client.post(
        "/api/v1/pools/join/", {"category": "japanese", "bots": False}, format="json"
    )
    assert japanese.json()["bots_in"] is None
    assert PoolEntry.objects.get(user=user).bots is False
