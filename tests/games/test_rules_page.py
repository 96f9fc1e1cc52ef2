"""The rules page: one per profile, linked from the lobby form and the table,
in every language the site speaks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from joker.rules import PROFILES
from tests.factories import UserFactory
from tests.games.helpers import seat_user, start_game

pytestmark = pytest.mark.django_db

# A sentence of each profile's own rules, and one that only it has.
OWN = {
    "georgian-club": "alternating (200 in the first and third pulkas",
    "georgian-tvaladze": "there is no penalty",
    "live-games": "as the six it replaces",
    "japanese": "5 columns on the table",
}


@pytest.mark.parametrize("profile", PROFILES)
def test_each_profile_has_its_rules(client, profile):
    response = client.get(
        reverse("games:rules", args=[profile]), headers={"accept-language": "en"}
    )

    assert response.status_code == 200
    page = response.content.decode()
    assert OWN[profile] in page
    for other, text in OWN.items():
        if other != profile:
            assert text not in page
        assert reverse("games:rules", args=[other]) in page


def test_the_club_rules_say_hisht_premium_deductions_and_pairs(client):
    page = client.get(reverse("games:rules-index")).content.decode()

    for heading in ("Hisht", "Premium", "Deductions", "Pairs"):
        assert f"<h3>{heading}</h3>" in page
    assert "may not make the bid that would bring the total" in page


def test_an_unknown_profile_has_no_rules(client):
    assert client.get("/rules/poker/").status_code == 404


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ka", ["წესები", "ხიშტი", "პრემია"]),
        ("ru", ["Правила", "Хишт", "Премия"]),
        ("tr", ["Kurallar", "Hişt", "Prim"]),
    ],
)
def test_the_rules_speak_every_language(client, lang, words):
    client.cookies["django_language"] = lang

    page = client.get(reverse("games:rules-index")).content.decode()

    assert f'<html lang="{lang}">' in page
    for word in words:
        assert word in page
    assert "takes exactly the tricks they bid" not in page


def test_the_lobby_form_and_the_table_link_to_the_rules(client):
    user = UserFactory()
    client.force_login(user)
    table = services.table_create(user=user, profile="japanese")

    lobby = client.get(reverse("games:lobby")).content.decode()
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()

    assert f'href="{reverse("games:rules-index")}"' in lobby
    assert f'href="{reverse("games:rules", args=["japanese"])}"' in page


def test_a_game_being_played_links_to_its_rules(client):
    game = start_game("georgian-club", people=1)
    client.force_login(seat_user(game, 0))

    page = client.get(reverse("games:table", args=[game.table_id])).content.decode()

    assert 'id="live"' in page
    assert f'href="{reverse("games:rules", args=["georgian-club"])}"' in page
