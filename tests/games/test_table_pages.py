"""The table page, the replay page and record downloads."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess

import pytest
from django.conf import settings
from django.urls import reverse

from games import selectors, services
from games.models import Game, Seat
from joker.record import replay
from tests.factories import UserFactory
from tests.games.helpers import abort, play_out, resign

pytestmark = pytest.mark.django_db


def japanese_game(user, *, target: int = 11, is_private: bool = False) -> Game:
    table = services.table_create(
        user=user,
        profile="japanese",
        options={"target": target},
        is_private=is_private,
    )
    services.seat_add_bot(table_id=table.pk, user=user, number=1, bot="autopilot")
    return Game.objects.get(table=table)


def seats_of(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(table_id=game.table_id).select_related("user"))


def embedded_json(content: str, element_id: str):
    start = content.index(f'id="{element_id}"')
    start = content.index(">", start) + 1
    end = content.index("</script>", start)
    return json.loads(content[start:end])


@pytest.fixture
def player(db):
    return UserFactory()


@pytest.fixture
def finished_game(player):
    return play_out(japanese_game(player).pk)


# The table page


def test_a_waiting_table_shows_its_seats(client, player):
    table = services.table_create(user=player, profile="georgian-club")
    client.force_login(player)

    response = client.get(reverse("games:table", args=[table.pk]))

    assert response.status_code == 200
    assert "games/table.html" in [t.name for t in response.templates]
    content = response.content.decode()
    assert player.username in content
    assert content.count("tseat tseat-free") == 3
    # The free seats can be filled from here: a join and a bot form each.
    assert content.count(reverse("games:seat-add-bot", args=[table.pk, 1])) == 1
    assert "starts as soon as all 4 seats are taken" in content
    assert reverse("games:lobby") in content
    assert reverse("games:table-state", args=[table.pk]) in content
    assert embedded_json(content, "table-config")["status"] == "open"


def test_a_waiting_table_is_shown_to_other_users_too(client, player):
    table = services.table_create(user=player, profile="japanese")
    client.force_login(UserFactory())

    response = client.get(reverse("games:table", args=[table.pk]))

    assert response.status_code == 200
    assert player.username in response.content.decode()


def test_the_state_of_a_waiting_table_says_when_the_game_starts(client, player):
    table = services.table_create(user=player, profile="japanese")
    client.force_login(player)
    url = reverse("games:table-state", args=[table.pk])

    waiting = client.get(url).json()
    services.seat_add_bot(table_id=table.pk, user=player, number=1, bot="autopilot")
    started = client.get(url).json()

    assert waiting["status"] == "open" and waiting["game"] is None
    assert [seat["name"] for seat in waiting["seats"]] == [player.username, ""]
    assert started["status"] == "playing"
    assert started["game"] == Game.objects.get(table=table).pk


def test_a_seated_player_gets_the_live_table_with_their_own_view(client, player):
    game = japanese_game(player)
    client.force_login(player)

    response = client.get(reverse("games:table", args=[game.table_id]))

    assert response.status_code == 200
    content = response.content.decode()
    config = embedded_json(content, "table-config")
    snapshot = embedded_json(content, "table-snapshot")
    assert config["game"] == game.pk
    assert config["you"] == 0
    assert config["ws_path"] == f"/ws/games/{game.pk}/"
    assert config["rules"]["japanese"] is True
    assert snapshot["you"] == 0
    assert snapshot["version"] == game.version
    assert snapshot["view"]["hand"]  # the player's own cards
    assert snapshot["commitments"] and "reveal" not in snapshot
    assert "js/table.js" in content and "js/fairness.js" in content
    assert reverse("games:javascript-catalog") in content


def test_a_spectator_gets_the_public_view(client, player):
    game = japanese_game(player)
    client.force_login(UserFactory())

    response = client.get(reverse("games:table", args=[game.table_id]))

    assert response.status_code == 200
    snapshot = embedded_json(response.content.decode(), "table-snapshot")
    assert snapshot["you"] is None
    assert snapshot["view"]["hand"] == []
    assert "legal" not in snapshot["view"]


def test_a_private_table_is_hidden_from_other_users(client, player):
    game = japanese_game(player, is_private=True)
    client.force_login(UserFactory())

    table_page = client.get(reverse("games:table", args=[game.table_id]))
    state = client.get(reverse("games:table-state", args=[game.table_id]))

    assert table_page.status_code == 404
    assert state.status_code == 404


def test_the_table_page_asks_anonymous_visitors_to_sign_in(client, player):
    game = japanese_game(player)

    response = client.get(reverse("games:table", args=[game.table_id]))

    assert response.status_code == 302


def test_an_unknown_table_is_404(client, player):
    client.force_login(player)

    assert client.get(reverse("games:table", args=[999999])).status_code == 404


def test_the_javascript_catalog_is_served(client):
    response = client.get(reverse("games:javascript-catalog"))

    assert response.status_code == 200
    assert b"gettext" in response.content


# Replays and records


def test_replay_and_record_are_404_while_the_game_is_played(client, player):
    game = japanese_game(player)
    client.force_login(player)

    assert client.get(reverse("games:replay", args=[game.pk])).status_code == 404
    assert client.get(reverse("games:record", args=[game.pk])).status_code == 404


def test_the_record_of_a_finished_game_replays_to_its_totals(client, finished_game):
    game = finished_game
    assert game.status == Game.Status.FINISHED

    response = client.get(reverse("games:record", args=[game.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        f'attachment; filename="pulka-game-{game.pk}.json"'
    )
    record = json.loads(response.content)
    assert record["profile"] == "japanese"
    state = replay(record).state
    assert state.is_over
    assert list(state.totals) == game.result["totals"]
    assert max(state.totals) >= 11


def test_the_replay_page_embeds_the_record_and_its_result(client, finished_game):
    game = finished_game

    response = client.get(reverse("games:replay", args=[game.pk]))

    assert response.status_code == 200
    assert "games/replay.html" in [t.name for t in response.templates]
    content = response.content.decode()
    record = embedded_json(content, "replay-record")
    result = embedded_json(content, "replay-result")
    download = json.loads(client.get(reverse("games:record", args=[game.pk])).content)
    assert record == download
    assert result["complete"] is True
    assert result["totals"] == game.result["totals"]
    assert len(result["deals"]) == len(record["deals"])
    assert all(len(deal["trick_winners"]) == 18 for deal in result["deals"])
    assert "js/replay/main.js" in content


def test_the_table_page_of_a_finished_game_reveals_the_deals(client, finished_game):
    game = finished_game
    client.force_login(finished_game.table.created_by)

    response = client.get(reverse("games:table", args=[game.table_id]))

    snapshot = embedded_json(response.content.decode(), "table-snapshot")
    assert snapshot["status"] == "finished"
    assert len(snapshot["reveal"]) == len(snapshot["commitments"])
    assert reverse("games:replay", args=[game.pk]) in response.content.decode()


def test_revealed_deals_hash_to_their_commitments_and_match_the_record(
    client, finished_game
):
    game = finished_game
    snapshot = selectors.snapshot(game, seats_of(game), None)
    record = json.loads(client.get(reverse("games:record", args=[game.pk])).content)

    reveal = snapshot["reveal"]
    assert len(reveal) == len(snapshot["commitments"]) == len(record["deals"])
    for index, item in enumerate(reveal):
        digest = hashlib.sha256(item["preimage"].encode("utf-8")).hexdigest()
        assert digest == snapshot["commitments"][index] == item["commitment"]
        dealt = json.loads(item["preimage"])
        assert dealt["deal"] == index
        assert dealt["hands"] == record["deals"][index]["hands"]
        assert dealt["columns"] == record["deals"][index]["columns"]


def test_an_aborted_game_has_a_replay_and_a_record(client, player):
    game = japanese_game(player)
    abort(game_id=game.pk, user=player)
    client.force_login(player)

    replay_page = client.get(reverse("games:replay", args=[game.pk]))
    record = client.get(reverse("games:record", args=[game.pk]))
    table_page = client.get(reverse("games:table", args=[game.table_id]))

    assert replay_page.status_code == 200
    assert record.status_code == 200
    assert len(json.loads(record.content)["deals"]) == 1
    assert embedded_json(table_page.content.decode(), "table-snapshot")["status"] == (
        "aborted"
    )


def test_a_private_game_replay_is_only_for_its_players(client, player):
    game = play_out(japanese_game(player, is_private=True).pk)
    client.force_login(UserFactory())

    assert client.get(reverse("games:replay", args=[game.pk])).status_code == 404
    assert client.get(reverse("games:record", args=[game.pk])).status_code == 404
    client.force_login(player)
    assert client.get(reverse("games:replay", args=[game.pk])).status_code == 200


def test_a_four_player_replay_page_renders(client, player):
    table = services.table_create(
        user=player, profile="georgian-club", options={"schedule": "nines"}
    )
    for number in (1, 2, 3):
        services.seat_add_bot(
            table_id=table.pk, user=player, number=number, bot="autopilot"
        )
    game = Game.objects.get(table=table)
    # Resigning hands the seat to a bot; the bots then finish the game.
    resign(game_id=game.pk, user=player)
    game = play_out(game.pk)
    assert game.status == Game.Status.FINISHED
    client.force_login(player)

    response = client.get(reverse("games:replay", args=[game.pk]))

    assert response.status_code == 200
    result = embedded_json(response.content.decode(), "replay-result")
    assert len(result["deals"]) == 16 and len(result["pulkas"]) == 4
    assert result["left"] == [0]
    assert result["totals"] == game.result["totals"]


# The browser's fair-deal check (static/js/fairness.js), run under Node.js

FAIRNESS_JS = settings.BASE_DIR / "static" / "js" / "fairness.js"

NODE_CHECK = """
const fairness = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
(async () => {
  const plain = input.reveal.map((item) => fairness.sha256HexSync(item.preimage));
  const honest = await fairness.verifyDeals(input);
  const record = JSON.parse(JSON.stringify(input.record));
  record.deals[1].hands.reverse();
  const swapped = await fairness.verifyDeals({ ...input, record });
  const commitments = [...input.commitments];
  commitments[0] = "0".repeat(64);
  const rehashed = await fairness.verifyDeals({ ...input, commitments });
  console.log(JSON.stringify({ plain, honest, swapped, rehashed }));
})();
"""


@pytest.fixture
def match_of_several_deals(player):
    # A match to 11 can end with its first deal; no deal scores 21.
    return play_out(japanese_game(player, target=21).pk)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_the_browser_check_verifies_the_deals_and_finds_changed_ones(
    client, match_of_several_deals
):
    game = match_of_several_deals
    snapshot = selectors.snapshot(game, seats_of(game), 0)
    record = json.loads(client.get(reverse("games:record", args=[game.pk])).content)
    data = {
        "reveal": snapshot["reveal"],
        "commitments": snapshot["commitments"],
        "record": record,
    }
    assert len(record["deals"]) >= 2

    run = subprocess.run(
        ["node", "-e", NODE_CHECK, str(FAIRNESS_JS)],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )

    out = json.loads(run.stdout)
    assert out["plain"] == snapshot["commitments"]
    assert out["honest"] == {
        "ok": True,
        "count": len(record["deals"]),
        "failures": [],
    }
    assert out["swapped"]["failures"] == [{"deal": 1, "reason": "cards"}]
    assert out["rehashed"]["failures"] == [{"deal": 0, "reason": "hash"}]
