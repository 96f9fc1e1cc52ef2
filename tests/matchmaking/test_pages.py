"""The quick-play page, /play/."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matchmaking import services
from matchmaking.models import PoolEntry
from tests.matchmaking.helpers import player
from tests.ranked.helpers import ranked_game, take_coins

pytestmark = pytest.mark.django_db

PLAY = "/play/"


def test_the_address_and_the_navigation_link(client):
    assert reverse("matchmaking:play") == PLAY
    content = client.get("/").content.decode()
    assert f'href="{PLAY}"' in content and "Quick play" in content


def test_a_visitor_sees_the_pools_and_is_asked_to_sign_in(client):
    a, b = player(), player()
    services.pool_join(user=a, category="joker-nines", stake=50)
    services.pool_join(user=b, category="joker-nines", stake=50)

    response = client.get(PLAY)

    assert response.status_code == 200
    content = response.content.decode()
    assert "Sign in to play." in content
    assert "It is never money" in content
    assert "Joker, nines" in content and "50 Domino Coin" in content
    assert 'id="quickplay-form"' not in content


def test_a_player_chooses_a_game_and_a_stake_and_waits(client):
    user = player()
    client.force_login(user)

    page = client.get(PLAY).content.decode()
    assert 'id="quickplay-form"' in page
    assert "You have 1000 coins." in page
    assert "No stake" in page and "1000 Domino Coin" in page

    response = client.post(
        reverse("matchmaking:join"), {"category": "japanese", "stake": "10"}
    )

    assert response.status_code == 302 and response["Location"] == PLAY
    entry = PoolEntry.objects.get(user=user)
    assert (entry.category, entry.stake) == ("japanese", 10)
    page = client.get(PLAY).content.decode()
    assert "Looking for players" in page
    assert 'data-socket="/ws/quickplay/"' in page
    assert 'id="quickplay-players">1<' in page
    assert "js/quickplay.js" in page
    assert "Japanese Joker" in page and "10 Domino Coin" in page


def test_cancel_takes_the_player_out_of_the_pool(client):
    user = player()
    services.pool_join(user=user, category="joker", stake=0)
    client.force_login(user)

    response = client.post(reverse("matchmaking:cancel"), follow=True)

    assert not PoolEntry.objects.exists()
    assert 'id="quickplay-form"' in response.content.decode()
    again = client.post(reverse("matchmaking:cancel"), follow=True)
    assert "You are not waiting for a game." in again.content.decode()


def test_a_refusal_is_explained_and_changes_nothing(client):
    user = player()
    take_coins(user, 990)
    client.force_login(user)

    response = client.post(
        reverse("matchmaking:join"), {"category": "joker", "stake": "50"}
    )

    assert response.status_code == 400
    assert "You have fewer Domino Coin than the stake." in response.content.decode()
    assert not PoolEntry.objects.exists()


def test_a_seated_player_is_told_to_finish_their_game_first(client):
    game = ranked_game("japanese")
    seated = game.table.seats.first().user
    client.force_login(seated)

    response = client.post(
        reverse("matchmaking:join"), {"category": "joker", "stake": "0"}
    )

    assert "finish that game first" in response.content.decode()
    assert not PoolEntry.objects.exists()


def test_a_bad_choice_is_a_form_error(client):
    client.force_login(player())
    response = client.post(
        reverse("matchmaking:join"), {"category": "chess", "stake": "10"}
    )
    assert response.status_code == 400
    assert not PoolEntry.objects.exists()


def test_joining_and_cancelling_need_sign_in_and_post(client):
    for name in ("matchmaking:join", "matchmaking:cancel"):
        response = client.post(reverse(name))
        assert (
            response.status_code == 302 and "/accounts/login/" in response["Location"]
        )
    client.force_login(player())
    assert client.get(reverse("matchmaking:join")).status_code == 405


def test_a_matched_player_finds_the_way_to_the_table(client):
    a, b = player(), player()
    services.pool_join(user=a, category="japanese", stake=0)
    services.pool_join(user=b, category="japanese", stake=0)
    [match] = services.match_tick()
    client.force_login(a)

    content = client.get(PLAY).content.decode()

    assert "Your table is ready." in content
    assert f'href="/tables/{match.table_id}/"' in content


def test_a_player_told_they_were_removed_sees_why(client):
    client.force_login(player())
    content = client.get(PLAY + "?removed=1").content.decode()
    assert "You are no longer waiting" in content
