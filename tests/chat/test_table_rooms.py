"""A table's two rooms belong to the table from the moment it opens: what
its players say while it waits for the last seats is stored with the table
(and no game), and is the start of its game's chat, for the replay, the
API, reports and the admin alike (docs/chat.md). The migration that gave
the rooms their table, forwards and back."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat import selectors, services
from chat.models import Message
from chat.selectors import table_room
from common.errors import NotAllowed, NotFound
from games import services as games
from games.models import Game
from tests.factories import StaffUserFactory, UserFactory
from tests.games.helpers import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting():
    """A table of four waiting for two more players: the table, its two
    players and someone who looks on."""
    nino, giorgi, tamar = UserFactory(), UserFactory(), UserFactory()
    table = games.table_create(
        user=nino, profile="georgian-club", options={"schedule": "nines"}
    )
    games.seat_take(table_id=table.pk, user=giorgi, number=1)
    return table, nino, giorgi, tamar


def say(user, table, seat, text):
    return services.message_post(
        author_id=user.pk,
        room=table_room(table.pk, seat),
        text=text,
        now=timezone.now(),
    )


def fill(table, by):
    for number in (2, 3):
        games.seat_add_bot(table_id=table.pk, user=by, number=number, bot="autopilot")
    return Game.objects.get(table=table)


def test_a_message_before_the_game_is_the_tables_and_then_the_games(waiting):
    table, nino, giorgi, tamar = waiting
    before = say(nino, table, 0, "gamarjoba")
    aside = say(tamar, table, None, "who plays fourth?")
    assert (before.room, before.table_id, before.game_id) == ("players", table.pk, None)
    assert (aside.room, aside.table_id, aside.game_id) == ("spectators", table.pk, None)
    game = fill(table, nino)
    during = say(giorgi, table, 1, "gl")
    assert (during.table_id, during.game_id) == (table.pk, game.pk)
    # The game's players' room begins with what was said while waiting.
    room = selectors.room_messages(table_room(table.pk, 0), giorgi.pk)
    assert [(m["text"], m["game"]) for m in room] == [
        ("gamarjoba", None),
        ("gl", game.pk),
    ]
    # While the game is played each side reads its own room, then both.
    url = f"/api/v1/games/{game.pk}/chat/"
    client = Client()
    client.force_login(tamar)
    assert [m["text"] for m in client.get(url).json()["results"]] == [
        "who plays fourth?"
    ]
    play_out(game.pk)
    shown = [m["text"] for m in Client().get(url).json()["results"]]
    assert shown == ["gamarjoba", "who plays fourth?", "gl"]
    game.refresh_from_db()
    assert [m["text"] for m in selectors.game_chat(game, tamar)] == shown


def test_the_room_is_the_seats_side_while_the_table_waits(waiting):
    table, nino, giorgi, tamar = waiting
    with pytest.raises(NotAllowed):
        say(tamar, table, 0, "let me in")
    with pytest.raises(NotAllowed):
        say(nino, table, None, "from the rail")
    games.seat_leave(table_id=table.pk, user=giorgi)
    with pytest.raises(NotAllowed):
        say(giorgi, table, 1, "still here?")
    assert say(giorgi, table, None, "watching now").room == "spectators"
    assert Message.objects.count() == 1


def test_a_report_keeps_the_waiting_rooms_conversation(waiting):
    table, nino, giorgi, tamar = waiting
    first = say(nino, table, 0, "hello")
    rude = say(giorgi, table, 1, "rude words")
    say(tamar, table, None, "elsewhere")
    # Only what one could be shown: a spectator not the players' room.
    with pytest.raises(NotFound):
        services.report_create(
            reporter_id=tamar.pk, message_id=rude.pk, reason="", now=timezone.now()
        )
    report = services.report_create(
        reporter_id=nino.pk, message_id=rude.pk, reason="rude", now=timezone.now()
    )
    assert [row["id"] for row in report.conversation] == [first.pk, rude.pk]
    assert report.conversation[1]["table"] == table.pk
    admin = Client()
    admin.force_login(StaffUserFactory(is_superuser=True))
    page = admin.get(reverse("admin:chat_report_change", args=[report.pk]))
    assert page.status_code == 200
    assert "rude words" in page.content.decode()
    listing = admin.get(reverse("admin:chat_message_changelist"))
    assert listing.status_code == 200 and "gamarjoba" not in listing.content.decode()


def test_the_database_keeps_a_table_room_to_its_table(waiting):
    table, nino, _, _ = waiting
    now = timezone.now()
    for fields in (
        {"room": "players"},
        {"room": "lobby", "table": table},
        {"room": "spectators", "game": None},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Message.objects.create(author=nino, text="x", created_at=now, **fields)


BEFORE = ("chat", "0002_verbose_names")
AFTER = ("chat", "0003_table_rooms")


@pytest.fixture
def executor(transactional_db):
    executor = MigrationExecutor(connection)
    yield executor
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_migration_gives_each_game_message_its_table_and_goes_back(executor):
    executor.migrate([BEFORE])
    apps = executor.loader.project_state([BEFORE]).apps
    user = apps.get_model("auth", "User").objects.create(username="old")
    Table = apps.get_model("games", "Table")
    table = Table.objects.create(profile="japanese", options={}, created_by=user)
    game = apps.get_model("games", "Game").objects.create(
        table=table, first_dealer=0, state={}
    )
    Message = apps.get_model("chat", "Message")
    now = timezone.now()
    said = Message.objects.create(
        room="players", game=game, author=user, text="gl", created_at=now
    )
    lobby = Message.objects.create(room="lobby", author=user, text="hi", created_at=now)

    executor = MigrationExecutor(connection)
    executor.migrate([AFTER])
    apps = executor.loader.project_state([AFTER]).apps
    Message = apps.get_model("chat", "Message")
    assert Message.objects.get(pk=said.pk).table_id == table.pk
    assert Message.objects.get(pk=lobby.pk).table_id is None
    waited = Message.objects.create(
        room="players", table_id=table.pk, author_id=user.pk, text="w", created_at=now
    )

    # Back: a message of a table that had no game yet has no room to go to.
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    apps = executor.loader.project_state([BEFORE]).apps
    left = apps.get_model("chat", "Message").objects.values_list("pk", flat=True)
    assert sorted(left) == sorted([said.pk, lobby.pk]) and waited.pk not in left
