"""The downloaded game record proves its deals: each deal's commitment and
salt, checkable from the record alone, by the snippet docs/engine.md gives."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games import fairness, services
from games.models import Game
from joker.record import replay
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


# The replay page's check, run by Node on the same records: the page's own
# modules (static/js/replay/fairness.js over static/js/fairness.js, with
# SubtleCrypto's SHA-256), a stand-in for the paragraph it writes to.
REPLAY_CHECK = """
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
const root = process.argv[2];
createRequire(import.meta.url)(root + "/static/js/fairness.js");
const { checkRecordDeals } = await import(root + "/static/js/replay/fairness.js");
const box = { className: "", textContent: "", dataset: {}, classList: { add() {} } };
await checkRecordDeals(box, JSON.parse(readFileSync(process.argv[3], "utf8")));
console.log(JSON.stringify({ verified: box.dataset.verified, text: box.textContent }));
"""


def replay_page_check(tmp_path: Path, record: dict) -> dict:
    script = tmp_path / "check.mjs"
    script.write_text(REPLAY_CHECK, encoding="utf-8")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = subprocess.run(
        ["node", str(script), str(settings.BASE_DIR), str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(result.stdout)


def test_the_replay_page_verifies_the_records_deals(client, player, tmp_path):
    game = play_out(japanese_game(player).pk)
    record = downloaded(client, game)

    page = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert 'id="replay-fairness"' in page
    assert page.index("js/fairness.js") < page.index("js/replay/main.js")

    checked = replay_page_check(tmp_path, record)
    assert checked["verified"] == "yes"
    count = len(record["deals"])
    # A match of one deal is worded for one.
    assert checked["text"] == (
        f"✔ All {count} deals verified: their cards were fixed before play began."
        if count > 1
        else "✔ The deal is verified: its cards were fixed before play began."
    )

    # The last deal: a match may be over in a deal or two.
    hands = record["deals"][-1]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    checked = replay_page_check(tmp_path, record)
    assert checked == {
        "verified": "no",
        "text": f"✘ Deal {count}: the cards do not hash to the commitment",
    }


def test_the_replay_page_shows_each_deals_commitment_salt_and_the_check(client, player):
    game = japanese_game(player)
    if game.status == Game.Status.PLAYING:
        game = play_out(game.pk)
    record = downloaded(client, game)

    page = client.get(reverse("games:replay", args=[game.pk])).content.decode()

    section = page.split('id="deal-proofs"', 1)[1].split("</details>", 1)[0]
    for proof in record["fairness"]:
        assert f"<code>{proof['commitment']}</code>" in section
        assert f"<code>{proof['salt']}</code>" in section
    assert html.escape(documented_snippet()) in section


def test_the_replay_pages_check_is_in_georgian_too(client, player):
    game = japanese_game(player)
    if game.status == Game.Status.PLAYING:
        game = play_out(game.pk)
    client.cookies["django_language"] = "ka"

    page = client.get(reverse("games:replay", args=[game.pk])).content.decode()

    section = page.split('id="deal-proofs"', 1)[1].split("</details>", 1)[0]
    assert "Check the deals yourself" not in section
    assert "To check them on your own computer" not in section
