"""The replay page carries the game's chat: both rooms once the game is
over, in order, embedded as JSON (never as markup), less the authors the
reader hides."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import timezone

from chat import services
from chat.selectors import table_room
from games.models import Game
from tests.factories import UserFactory
from tests.games.helpers import play_out, start_table

pytestmark = pytest.mark.django_db(transaction=True)

SCRIPT = "<script>alert(1)</script>"


def embedded_chat(response) -> list[dict]:
    assert response.status_code == 200
    found = re.search(
        r'<script id="replay-chat-data" type="application/json">(.*?)</script>',
        response.text,
        re.S,
    )
    return json.loads(found[1])


@pytest.fixture
def finished():
    table, (nino, giorgi) = start_table("japanese", {"target": 11}, people=2)
    game = Game.objects.get(table=table)
    watcher = UserFactory()
    now = timezone.now()
    for author, seat, text in [
        (nino, 0, "gl"),
        (watcher, None, SCRIPT),
        (giorgi, 0, "thanks"),
    ]:
        services.message_post(
            author_id=author.pk,
            room=table_room(game.table_id, seat),
            text=text,
            now=now,
        )
    play_out(game.pk)
    return game, nino, giorgi, watcher


def test_the_replay_shows_both_rooms_in_order_as_data(finished):
    game, *_ = finished
    response = Client().get(f"/games/{game.pk}/replay/")
    chat = embedded_chat(response)
    assert [(m["room"], m["text"]) for m in chat] == [
        ("players", "gl"),
        ("spectators", SCRIPT),
        ("players", "thanks"),
    ]
    assert SCRIPT not in response.text  # json_script escapes the brackets


def test_the_replay_leaves_out_whom_the_reader_muted(finished):
    game, nino, _, watcher = finished
    services.personal_mute_set(
        user_id=nino.pk, muted_id=watcher.pk, muted=True, now=timezone.now()
    )
    client = Client()
    client.force_login(nino)
    chat = embedded_chat(client.get(f"/games/{game.pk}/replay/"))
    assert [m["text"] for m in chat] == ["gl", "thanks"]
