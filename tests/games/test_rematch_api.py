"""The rematch in the REST API: /api/v1/games/<id>/rematch/."""

from __future__ import annotations

import pytest

from games.models import Game, Table
from tests.factories import UserFactory
from tests.games.helpers import resign, start_table

pytestmark = pytest.mark.django_db


def finished(**kwargs) -> tuple[Game, list]:
    table, users = start_table("japanese", {"target": 11}, people=2, **kwargs)
    game = Game.objects.get(table=table)
    resign(game_id=game.pk, user=users[1])
    return game, users


def address(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/rematch/"


def test_agree_decline_and_make_a_rematch(api_client):
    game, (first, second) = finished()
    state = api_client.get(address(game)).json()
    assert (state["state"], state["agreed"], state["table"]) == ("none", [], None)

    api_client.force_authenticate(first)
    offered = api_client.post(address(game))
    assert offered.status_code == 200
    assert (offered.json()["state"], offered.json()["waiting"]) == ("open", [1])

    api_client.force_authenticate(second)
    declined = api_client.delete(address(game)).json()
    assert (declined["state"], declined["reason"], declined["seat"]) == (
        "lapsed",
        "declined",
        1,
    )

    assert api_client.post(address(game)).json()["agreed"] == [1]
    api_client.force_authenticate(first)
    made = api_client.post(address(game)).json()
    assert made["state"] == "made"
    assert made["url"] == f"/tables/{made['table']}/"
    assert Table.objects.get(pk=made["table"]).status == Table.Status.PLAYING


def test_anonymous_may_read_but_not_agree(api_client):
    game, _ = finished()
    assert api_client.get(address(game)).status_code == 200
    refused = api_client.post(address(game))
    assert (refused.status_code, refused.json()["code"]) == (401, "not_authenticated")


def test_a_private_game_s_rematch_is_not_found_for_others(api_client):
    game, _ = finished(is_private=True)
    api_client.force_authenticate(UserFactory())
    for method in ("get", "post", "delete"):
        response = getattr(api_client, method)(address(game))
        assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert api_client.get("/api/v1/games/987654/rematch/").status_code == 404
