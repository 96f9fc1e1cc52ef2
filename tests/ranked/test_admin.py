"""The operators' actions: annul games, ban players."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.urls import reverse

from accounts.bans import user_ban
from accounts.models import Ban
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
USERS = reverse("admin:auth_user_changelist")


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


def test_the_ban_action_asks_for_a_reason_then_bans(client, operator):
    players = [UserFactory(), UserFactory()]
    data = {"action": "ban_players", ACTION_CHECKBOX_NAME: [u.pk for u in players]}

    response = client.post(USERS, data)
    assert response.status_code == 200
    assert "accounts/admin/ban.html" in [t.name for t in response.templates]

    response = client.post(USERS, {**data, "apply": "1", "reason": ""})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not Ban.objects.exists()

    response = client.post(USERS, {**data, "apply": "1", "reason": "bots"}, follow=True)
    assert "2 players banned." in messages_of(response)
    for player in players:
        player.refresh_from_db()
        assert not player.is_active
        assert player.bans.get().by == operator


def test_an_operator_cannot_ban_themself(client, operator):
    data = {
        "action": "ban_players",
        ACTION_CHECKBOX_NAME: [operator.pk],
        "apply": "1",
        "reason": "test",
    }

    response = client.post(USERS, data, follow=True)

    assert "was not banned" in messages_of(response)[0]
    operator.refresh_from_db()
    assert operator.is_active


@pytest.mark.parametrize("name", ["accounts_ban", "games_game"])
def test_the_lists_open(client, operator, name):
    user_ban(user=UserFactory(), by=operator, reason="test")
    finish(ranked_game("japanese"))
    assert client.get(reverse(f"admin:{name}_changelist")).status_code == 200
    assert client.get(USERS).status_code == 200
