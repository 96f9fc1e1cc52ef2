"""Ranked tables in the lobby and at the table: the form, the cards, the
ratings next to the players, and refusals as messages."""

from __future__ import annotations

import json

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games import services
from games.models import Game, Seat, Table
from tests.factories import UserFactory
from tests.ranked.helpers import (
    balance,
    established,
    ranked_game,
    ranked_table,
    take_coins,
)

pytestmark = pytest.mark.django_db

LOBBY = reverse("games:lobby")
CREATE = reverse("games:table-create")
CASUAL = {"profile": "georgian-club", "schedule": "classic", "hisht_penalty": "200"}


def take_url(table, number):
    return reverse("games:seat-take", args=[table.pk, number])


def bot_url(table, number):
    return reverse("games:seat-add-bot", args=[table.pk, number])


def errors_of(response) -> list[str]:
    return [
        str(message)
        for message in get_messages(response.wsgi_request)
        if message.level_tag == "error"
    ]


def embedded_json(content: str, element_id: str):
    start = content.index(f'id="{element_id}"')
    start = content.index(">", start) + 1
    end = content.index("</script>", start)
    return json.loads(content[start:end])


@pytest.fixture
def player():
    return UserFactory()


@pytest.fixture
def signed_in(client, player):
    client.force_login(player)
    return client


# The form


def test_the_form_offers_ranked_play_a_category_and_a_stake(signed_in):
    content = signed_in.get(LOBBY).content.decode()

    assert 'name="ranked"' in content
    assert 'name="category"' in content
    assert '<option value="joker-nines"' in content
    assert '<option value="japanese"' in content
    assert 'name="stake"' in content
    for stake in ("0", "10", "50", "100", "500", "1000"):
        assert f'<option value="{stake}"' in content
    assert 'data-ranked="yes"' in content and 'data-ranked="no"' in content


@pytest.mark.parametrize(
    ("category", "profile", "options"),
    [
        ("joker-nines", "georgian-club", {"schedule": "nines"}),
        ("japanese", "japanese", {"target": 21}),
        ("joker-pairs", "georgian-club", {"pairs": True}),
    ],
)
def test_a_ranked_table_plays_the_category_preset(
    signed_in, player, category, profile, options
):
    # The profile fields say otherwise; a ranked table ignores them.
    posted = {**CASUAL, "hisht_penalty": "500", "turn_seconds": "30"}
    posted |= {"ranked": "on", "category": category, "stake": "10"}

    response = signed_in.post(CREATE, posted)

    table = Table.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("games:table", args=[table.pk])
    assert (table.ranked, table.stake, table.profile) == (True, 10, profile)
    assert table.options == {**table.options, **options}
    assert table.options.get("hisht_penalty", "200") == "200"
    assert Seat.objects.get(table=table, number=0).user == player


def test_a_casual_table_has_no_stake(signed_in):
    response = signed_in.post(CREATE, {**CASUAL, "turn_seconds": "30", "stake": "10"})

    assert response.status_code == 200
    assert "stake" in response.context["form"].errors
    assert not Table.objects.exists()


def test_a_casual_table_is_not_ranked(signed_in):
    signed_in.post(CREATE, {**CASUAL, "turn_seconds": "30"})
    table = Table.objects.get()
    assert (table.ranked, table.stake) == (False, 0)


def test_a_stake_beyond_the_wallet_is_refused_with_a_message(signed_in, player):
    take_coins(player, balance(player) - 5)
    posted = {**CASUAL, "turn_seconds": "30", "ranked": "on"}
    posted |= {"category": "japanese", "stake": "10"}

    response = signed_in.post(CREATE, posted)

    assert response.status_code == 200
    assert errors_of(response) == [
        "The stake at this table is 10 Domino Coin, and your wallet holds fewer."
    ]
    assert "The stake at this table is 10 Domino Coin" in response.content.decode()
    assert not Table.objects.exists()


def test_a_high_stake_without_an_established_rating_is_refused(signed_in):
    posted = {**CASUAL, "turn_seconds": "30", "ranked": "on"}
    posted |= {"category": "japanese", "stake": "500"}

    response = signed_in.post(CREATE, posted)

    (message,) = errors_of(response)
    assert "needs an established rating: 20 rated games" in message
    assert not Table.objects.exists()


def test_a_second_ranked_table_is_refused(signed_in, player):
    ranked_table("joker-nines", users=[player, *(UserFactory() for _ in range(3))])
    posted = {**CASUAL, "turn_seconds": "30", "ranked": "on", "category": "japanese"}

    response = signed_in.post(CREATE, posted)

    (message,) = errors_of(response)
    assert "another ranked table" in message
    assert Table.objects.count() == 1


def test_a_refused_seat_is_explained(client):
    table, users = ranked_table("japanese", stake=100)
    poor = users[1]
    take_coins(poor, balance(poor) - 10)
    client.force_login(poor)

    response = client.post(take_url(table, 1), {"next": LOBBY})

    assert response.status_code == 302
    assert errors_of(response) == [
        "The stake at this table is 100 Domino Coin, and your wallet holds fewer."
    ]
    assert Seat.objects.get(table=table, number=1).user is None


def test_a_bot_is_refused_with_a_message(client):
    table, users = ranked_table("joker-nines")
    client.force_login(users[0])

    response = client.post(bot_url(table, 3), {"bot": "autopilot"})

    assert errors_of(response) == ["Ranked tables are played by people only."]
    assert Seat.objects.get(table=table, number=3).is_empty


# The cards


def test_a_ranked_card_shows_ranked_the_stake_and_the_players_ratings(client):
    veteran = established("joker-nines", rating=1733)
    newcomer = established("joker-nines", rating=1520, games=3)
    table, _ = ranked_table(
        "joker-nines", stake=50, users=[veteran, newcomer, UserFactory(), None]
    )

    response = client.get(LOBBY)

    (row,) = response.context["open_rows"]
    assert row.table == table and row.category == "joker-nines"
    ratings = [
        None if seat.rating is None else (seat.rating.rating, seat.rating.provisional)
        for seat in row.seats
    ]
    assert ratings == [(1733, False), (1520, True), (1500, True), None]
    content = response.content.decode()
    assert "Ranked" in content
    assert "Stake 50 Domino Coin" in content
    assert "Rating category: Joker, nines" in content
    assert ">1733</span>" in content
    assert '1520<abbr class="provisional"' in content
    assert '1500<abbr class="provisional"' in content


def test_a_casual_table_outside_the_categories_shows_no_ratings(client):
    services.table_create(
        user=established("joker"),
        profile="georgian-club",
        options={"deductions": False},
    )

    (row,) = client.get(LOBBY).context["open_rows"]

    assert row.category is None
    assert [seat.rating for seat in row.seats] == [None] * 4


def test_the_lobby_reads_the_ratings_in_one_query_per_category(
    client, django_assert_max_num_queries
):
    for _ in range(3):
        ranked_table("joker-nines")
        ranked_table("japanese")
    with django_assert_max_num_queries(12):
        response = client.get(LOBBY)
    assert len(response.context["open_rows"]) == 6


def test_a_ranked_table_hides_the_bot_buttons(client, player):
    ranked, _ = ranked_table("joker-nines", users=[player, UserFactory(), None, None])
    client.force_login(player)

    row = client.get(reverse("games:table", args=[ranked.pk])).context["row"]
    assert not row.may_add_bot
    lobby = client.get(LOBBY)
    assert "Add bot" not in lobby.content.decode()

    casual = services.table_create(user=UserFactory(), profile="georgian-club")
    services.seat_take(table_id=casual.pk, user=UserFactory(), number=1)
    client.force_login(casual.created_by)
    assert "Add bot" in client.get(LOBBY).content.decode()


# The live table


def test_the_live_table_shows_ranked_the_stake_and_the_ratings(client):
    veteran = established("japanese", rating=1810)
    game = ranked_game("japanese", stake=100, users=[veteran, UserFactory()])
    client.force_login(veteran)

    content = client.get(reverse("games:table", args=[game.table_id])).content
    content = content.decode()

    config = embedded_json(content, "table-config")
    assert (config["ranked"], config["stake"]) == (True, 100)
    assert config["ratings"] == [
        {"rating": 1810, "provisional": False},
        {"rating": 1500, "provisional": True},
    ]
    assert "Stake 100 Domino Coin" in content
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
