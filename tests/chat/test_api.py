"""The chat in the REST API: who reads which room of a game, and the
lobby's (docs/chat.md)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from chat import services
from chat.models import Message
from chat.selectors import LOBBY, table_room
from games.models import Game
from social.services import block_create
from tests.factories import UserFactory
from tests.games.helpers import play_out, start_table

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(user=None) -> Client:
    client = Client()
    client.force_login(user or UserFactory())
    return client


@pytest.fixture
def talk(settings):
    """A match with something said in each room: the game, its two
    players and a spectator."""
    settings.PULKA_CHAT_MESSAGES = 100
    table, (nino, giorgi) = start_table("japanese", {"target": 11}, people=2)
    game = Game.objects.get(table=table)
    watcher = UserFactory()
    now = timezone.now()
    for author, seat, text in [
        (nino, 0, "gl"),
        (watcher, None, "<script>alert(1)</script>"),
        (giorgi, 0, "you too"),
    ]:
        services.message_post(
            author_id=author.pk,
            room=table_room(game.table_id, seat),
            text=text,
            now=now,
        )
    return game, nino, giorgi, watcher


def texts(response) -> list[tuple[str, str]]:
    assert response.status_code == 200, response.content
    return [(m["room"], m["text"]) for m in response.json()["results"]]


def test_during_the_game_each_reads_only_their_room(talk):
    game, nino, _, watcher = talk
    url = f"/api/v1/games/{game.pk}/chat/"
    assert texts(signed_in(nino).get(url)) == [
        ("players", "gl"),
        ("players", "you too"),
    ]
    assert texts(signed_in(watcher).get(url)) == [
        ("spectators", "<script>alert(1)</script>")
    ]
    assert signed_in(watcher).get(url, {"room": "players"}).status_code == 404
    assert Client().get(url).status_code == 404
    assert Client().get(url).json()["code"] == "not_found"


def test_once_over_anyone_reads_both_rooms_in_order(talk):
    game, nino, giorgi, watcher = talk
    play_out(game.pk)
    url = f"/api/v1/games/{game.pk}/chat/"
    both = [
        ("players", "gl"),
        ("spectators", "<script>alert(1)</script>"),
        ("players", "you too"),
    ]
    assert texts(Client().get(url)) == both
    assert texts(Client().get(url, {"room": "spectators"})) == [both[1]]
    # A block or a mute holds here too.
    block_create(blocker_id=giorgi.pk, blocked_id=nino.pk)
    assert texts(signed_in(giorgi).get(url)) == both[1:]
    services.personal_mute_set(
        user_id=nino.pk, muted_id=watcher.pk, muted=True, now=timezone.now()
    )
    assert texts(signed_in(nino).get(url)) == [both[0]]


def test_a_private_tables_chat_is_its_players_only(settings):
    table, (nino, _) = start_table(
        "japanese", {"target": 11}, people=2, is_private=True
    )
    game = Game.objects.get(table=table)
    services.message_post(
        author_id=nino.pk,
        room=table_room(game.table_id, 0),
        text="ours",
        now=timezone.now(),
    )
    play_out(game.pk)
    url = f"/api/v1/games/{game.pk}/chat/"
    assert texts(signed_in(nino).get(url)) == [("players", "ours")]
    assert signed_in().get(url).status_code == 404


def test_a_bad_room_or_game(talk):
    game, nino, _, _ = talk
    response = signed_in(nino).get(f"/api/v1/games/{game.pk}/chat/", {"room": "x"})
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert signed_in(nino).get("/api/v1/games/987654/chat/").status_code == 404


def test_the_lobbys_chat_newest_first():
    nino = UserFactory()
    now = timezone.now()
    for text in ("one", "two"):
        services.message_post(author_id=nino.pk, room=LOBBY, text=text, now=now)
    response = Client().get("/api/v1/chat/lobby/")
    assert texts(response) == [("lobby", "two"), ("lobby", "one")]
    assert response.json()["results"][0]["author"] == {
        "id": nino.pk,
        "name": nino.username,
    }
    assert Message.objects.count() == 2


def test_the_schema_documents_the_chat():
    paths = Client().get("/api/v1/schema/", {"format": "json"}).json()["paths"]
    assert "/api/v1/games/{id}/chat/" in paths
    assert "/api/v1/chat/lobby/" in paths
