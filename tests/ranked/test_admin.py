"""The operators' action "Annul game"."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.urls import reverse

from games.models import Game
from tests.factories import StaffUserFactory, UserFactory
from tests.ranked.helpers import (
    balance,
    balances,
    finish,
    ranked_game,
    take_coins,
    users_by_seat,
)

pytestmark = pytest.mark.django_db

GAMES = reverse("admin:games_game_changelist")


@pytest.fixture
def operator(client):
    user = StaffUserFactory()
    client.force_login(user)
    return user


def annul(client, *games, apply=True):
    data = {"action": "annul_games", ACTION_CHECKBOX_NAME: [g.pk for g in games]}
    if apply:
        data["apply"] = "1"
    return client.post(GAMES, data, follow=apply)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_annulling_asks_first_and_changes_nothing_until_confirmed(client, operator):
    game = finish(ranked_game("japanese", stake=10))

    response = annul(client, game, apply=False)

    assert response.status_code == 200
    assert "games/admin/annul.html" in [t.name for t in response.templates]
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def test_the_annul_action_annuls_the_selected_games(client, operator):
    finished = finish(ranked_game("japanese", stake=10))
    playing = ranked_game("japanese", stake=10)
    users = users_by_seat(finished) + users_by_seat(playing)

    response = annul(client, finished, playing)

    assert "2 games annulled." in messages_of(response)
    statuses = set(Game.objects.values_list("status", flat=True))
    assert statuses == {Game.Status.ANNULLED}
    assert balances(users) == [1000] * 4
    assert Game.objects.get(pk=finished.pk).annulled_by == operator

    response = annul(client, finished)
    assert "1 game was annulled already." in messages_of(response)


def test_a_refused_annulment_is_reported(client, operator):
    game = finish(ranked_game("japanese", stake=100))
    (seat,) = game.result["winners"]
    winner = users_by_seat(game)[seat]
    take_coins(winner, balance(winner))

    response = annul(client, game)

    (message,) = messages_of(response)
    assert f"Game {game.pk} was not annulled" in message
    assert winner.username in message
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def test_staff_without_the_permission_have_no_annul_action(client):
    clerk = UserFactory(is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_game"))
    client.force_login(clerk)
    game = finish(ranked_game("japanese"))

    response = client.get(GAMES)
    assert response.status_code == 200
    assert "annul_games" not in response.content.decode()
    annul(client, game)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
