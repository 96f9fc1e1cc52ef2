"""What a ranked game's result says of the ratings: each player's change, or
the rule that left the game unrated, as the ratings decided it. The same in
the game's last snapshot (the table page), on the replay page and in the
API's game."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.services import profile_get_or_create
from games.models import Game
from games.services.annul import game_annul
from tests.factories import StaffUserFactory, UserFactory
from tests.games.helpers import resign, snapshot
from tests.ranked.helpers import established, ranked_game, users_by_seat

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"


def resigned(game: Game, seat: int) -> Game:
    resign(game_id=game.pk, user=users_by_seat(game)[seat])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def honest_game() -> Game:
    """A ranked Japanese game between two established players at 1600, seat
    1 resigning: seat 0 gains 10."""
    users = [established("japanese"), established("japanese")]
    return resigned(ranked_game("japanese", users=users), 1)


def new_account_leaves() -> Game:
    """A ranked Japanese game that a new account (made on the sign-up
    page, no rating yet) resigns to an established player."""
    newcomer = UserFactory()
    profile = profile_get_or_create(newcomer)
    profile.signed_up = True
    profile.save(update_fields=["signed_up"])
    users = [established("japanese"), newcomer]
    return resigned(ranked_game("japanese", users=users), 1)


def test_the_last_snapshot_of_a_rated_game_has_every_change():
    game = honest_game()

    rating = snapshot(game, 0)["rating"]

    assert rating == {
        "rated": True,
        "reason": "",
        "changes": [
            {"before": 1600, "after": 1610, "delta": 10},
            {"before": 1600, "after": 1590, "delta": -10},
        ],
    }


def test_the_last_snapshot_of_a_game_a_new_account_left_says_why():
    game = new_account_leaves()

    assert snapshot(game, None)["rating"] == {
        "rated": False,
        "reason": "provisional_left",
        "changes": None,
    }


def test_a_casual_game_and_one_in_play_say_nothing_of_ratings(api_client):
    game = ranked_game("japanese")

    assert "rating" not in snapshot(game, 0)
    assert api_client.get(f"{GAMES}{game.pk}/").json()["rating"] is None


def test_the_api_gives_the_changes_or_the_reason(api_client):
    rated = honest_game()
    unrated = new_account_leaves()

    rated_answer = api_client.get(f"{GAMES}{rated.pk}/").json()["rating"]
    unrated_answer = api_client.get(
        f"{GAMES}{unrated.pk}/", HTTP_ACCEPT_LANGUAGE="ru"
    ).json()["rating"]

    assert rated_answer == {
        "rated": True,
        "reason": "",
        "detail": "",
        "changes": [
            {"before": 1600, "after": 1610, "delta": 10},
            {"before": 1600, "after": 1590, "delta": -10},
        ],
    }
    assert (unrated_answer["rated"], unrated_answer["reason"]) == (
        False,
        "provisional_left",
    )
    assert unrated_answer["changes"] is None
    assert unrated_answer["detail"] == (
        "новый аккаунт с ещё предварительным рейтингом покинул игру, а игра, "
        "которую покидает такой аккаунт, ничей рейтинг не меняет"
    )


def test_an_annulled_game_says_it_was_annulled(api_client):
    game = honest_game()

    game_annul(game_id=game.pk, by=StaffUserFactory())

    rating = api_client.get(f"{GAMES}{game.pk}/").json()["rating"]
    assert (rating["rated"], rating["reason"]) == (False, "annulled")
    game.refresh_from_db()
    assert snapshot(game, 0)["rating"]["reason"] == "annulled"


def test_the_replay_page_shows_the_changes_or_the_reason():
    rated = honest_game()
    unrated = new_account_leaves()
    client = Client()

    rated_page = client.get(f"/games/{rated.pk}/replay/").content.decode()
    unrated_page = client.get(f"/games/{unrated.pk}/replay/").content.decode()

    assert "Rating 1600 → 1610 (+10)" in rated_page
    assert "Rating 1600 → 1590 (\u221210)" in rated_page
    assert (
        "Not rated: a new account, its rating still provisional, left the game, "
        "and a game such an account leaves moves nobody&#x27;s rating."
    ) in unrated_page
