"""The operators' pages for live play open and list what they should."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from tests.factories import StaffUserFactory, UserFactory


@pytest.fixture
def started_game(db):
    user = UserFactory()
    table = services.table_create(user=user, profile="japanese")
    services.seat_add_bot(table_id=table.pk, user=user, number=1, bot="autopilot")
    return Game.objects.get(table=table)


@pytest.mark.parametrize("name", ["table", "game", "gameevent", "dealrecord"], ids=str)
def test_changelists_and_details_open(client, started_game, name):
    client.force_login(StaffUserFactory())
    response = client.get(reverse(f"admin:games_{name}_changelist"))
    assert response.status_code == 200
    obj = {
        "table": started_game.table,
        "game": started_game,
        "gameevent": started_game.events.first(),
        "dealrecord": started_game.deal_records.first(),
    }[name]
    response = client.get(reverse(f"admin:games_{name}_change", args=[obj.pk]))
    assert response.status_code == 200


def test_games_cannot_be_edited_in_the_admin(client, started_game):
    client.force_login(StaffUserFactory())
    url = reverse("admin:games_game_change", args=[started_game.pk])
    response = client.post(url, {"version": 999})
    assert response.status_code == 403
    started_game.refresh_from_db()
    assert started_game.version != 999
