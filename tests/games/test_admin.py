"""The operators' pages for live play open and list what they should."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from games import services
from games.models import Game, HandsRead
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


def _open(client, name: str, obj):
    return client.get(reverse(f"admin:games_{name}_change", args=[obj.pk]))


def _superuser_client():
    from django.test import Client

    client = Client()
    client.force_login(StaffUserFactory(is_superuser=True))
    return client


def test_a_game_being_played_shows_no_hidden_card_even_to_a_superuser(
    started_game,
):
    client = _superuser_client()
    record = started_game.deal_records.first()

    # Read as the browser shows them: JSON in a page is HTML-escaped ("&quot;").
    game_page = html.unescape(_open(client, "game", started_game).content.decode())
    deal_page = html.unescape(_open(client, "dealrecord", record).content.decode())

    assert '"form-row field-state"' not in game_page
    assert "field-hands" not in deal_page and "field-salt" not in deal_page
    assert record.salt not in deal_page
    for card in record.hands[0]:
        assert f'"{card}"' not in deal_page + game_page
    assert not HandsRead.objects.exists()


def test_the_live_hands_permission_shows_them_and_every_read_is_logged(started_game):
    from django.contrib.auth.models import Permission

    operator = UserFactory(is_staff=True)
    operator.user_permissions.add(
        *Permission.objects.filter(
            codename__in=["view_game", "view_dealrecord", "view_live_hands"],
            content_type__app_label="games",
        )
    )
    from django.test import Client

    client = Client()
    client.force_login(operator)
    record = started_game.deal_records.first()

    assert (
        '"form-row field-state"' in _open(client, "game", started_game).content.decode()
    )
    assert record.salt in _open(client, "dealrecord", record).content.decode()

    reads = list(HandsRead.objects.order_by("pk"))
    assert [(r.game_id, r.by_id, r.what) for r in reads] == [
        (started_game.pk, operator.pk, "game"),
        (started_game.pk, operator.pk, "deal 1"),
    ]
    log = _superuser_client().get(reverse("admin:games_handsread_changelist"))
    assert operator.username in log.content.decode()


def test_a_finished_game_shows_its_cards_without_the_permission(started_game):
    Game.objects.filter(pk=started_game.pk).update(status=Game.Status.FINISHED)
    client = _superuser_client()
    record = started_game.deal_records.first()
    assert record.salt in _open(client, "dealrecord", record).content.decode()
    assert not HandsRead.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ru", ["Игры", "Столы", "Записи раздач", "Статус", "Версия", "Сыграно карт"]),
        ("tr", ["Oyunlar", "Masalar", "Tur kayıtları", "Sürüm", "Oynanan kartlar"]),
    ],
)
def test_the_games_admin_names_its_models_and_columns_in_the_language(
    db, language, words
):
    from django.test import Client

    from tests.factories import StaffUserFactory
    from tests.games.helpers import start_game

    start_game("japanese", people=1)  # a row, so that the list has its columns
    client = Client()
    client.force_login(StaffUserFactory())
    client.cookies["django_language"] = language

    index = client.get("/admin/games/").content.decode()
    games = client.get("/admin/games/game/").content.decode()

    for word in words[:3]:
        assert word in index
    for word in words[3:]:
        assert word in games
