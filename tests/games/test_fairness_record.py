"""The downloaded game record proves its deals: each deal's commitment and
salt, checkable from the record alone, by the snippet docs/engine.md gives."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games import fairness, services
from games.engine.record import replay
from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import play_out
from tests.games.test_table_pages import japanese_game

pytestmark = pytest.mark.django_db

DOC = Path(settings.BASE_DIR) / "docs" / "engine.md"


def documented_snippet() -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Checking the deals of a record", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S)[1]


def run_snippet(tmp_path: Path, record: dict) -> subprocess.CompletedProcess:
    script = tmp_path / "check_deals.py"
    script.write_text(documented_snippet(), encoding="utf-8")
    path = tmp_path / "pulka-game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script), str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def downloaded(client, game: Game) -> dict:
    response = client.get(reverse("games:record", args=[game.pk]))
    assert response.status_code == 200
    return json.loads(response.content)


@pytest.fixture
def player(db):
    return UserFactory()


def four_player_game(user) -> Game:
    table = services.table_create(
        user=user, profile="georgian-club", options={"schedule": "nines"}
    )
    for number in (1, 2, 3):
        services.seat_add_bot(
            table_id=table.pk, user=user, number=number, bot="autopilot"
        )
    return play_out(Game.objects.get(table=table).pk)


@pytest.mark.parametrize("make", [japanese_game, four_player_game])
def test_the_record_carries_every_deals_commitment_and_salt(
    client, player, make, tmp_path
):
    game = make(player)
    if game.status == Game.Status.PLAYING:
        game = play_out(game.pk)

    record = downloaded(client, game)

    assert len(record["fairness"]) == len(record["deals"]) > 0
    assert [proof["commitment"] for proof in record["fairness"]] == list(
        game.commitments
    )
    assert fairness.record_failures(record) == []
    assert replay(record).state.is_over
    result = run_snippet(tmp_path, record)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == "changed deals: none\n"


def test_a_record_with_a_card_moved_fails_the_documented_check(
    client, player, tmp_path
):
    record = downloaded(client, play_out(japanese_game(player).pk))
    hands = record["deals"][1]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]

    result = run_snippet(tmp_path, record)

    assert result.returncode == 1
    assert result.stdout == "changed deals: [1]\n"
    assert fairness.record_failures(record) == [1]


def test_a_record_without_a_deals_proof_fails(client, player, tmp_path):
    record = downloaded(client, play_out(japanese_game(player).pk))
    del record["fairness"][0]

    assert run_snippet(tmp_path, record).returncode == 1
    assert fairness.record_failures(record) == [0]


def test_the_apis_record_is_the_downloaded_one(client, player):
    game = play_out(japanese_game(player).pk)

    response = client.get(f"/api/v1/games/{game.pk}/record/")

    assert response.status_code == 200
    assert response.json() == downloaded(client, game)
    assert fairness.record_failures(response.json()) == []
