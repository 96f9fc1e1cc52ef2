"""A finished game's review made again on request (docs/review.md): only
for its players and staff, only when it failed or an earlier version of
the review or its bot made it, never for a game being played; throttled.
And the replay page's review panel: configured for a finished game's
review only."""

from __future__ import annotations

import json
import re

import pytest
from django.core.cache import cache
from django.test import override_settings

from games.models import Game, GameReview
from joker.review import version
from tests.factories import UserFactory
from tests.games.helpers import play_out, snapshot
from tests.games.test_reviews import sent_reviews, url
from tests.games.test_table_pages import embedded_json, japanese_game
from tests.test_documented_errors import documented_codes

pytestmark = pytest.mark.django_db


@pytest.fixture
def player():
    return UserFactory()


@pytest.fixture
def finished(player):
    game = play_out(japanese_game(player).pk)
    assert game.status == Game.Status.FINISHED
    return game


def stored(game: Game, status: str, made_by: str) -> GameReview:
    review = GameReview.objects.get(game=game)
    review.status = status
    review.version = made_by
    review.data = {"seats": []} if status == GameReview.Status.DONE else None
    review.error = "ValueError: made up" if status == GameReview.Status.FAILED else ""
    review.save()
    return review


@pytest.mark.parametrize(
    ("status", "made_by"),
    [(GameReview.Status.DONE, "0-old"), (GameReview.Status.FAILED, "")],
    ids=["out-of-date", "failed"],
)
def test_a_player_has_an_out_of_date_or_failed_review_queued_again(
    client, player, finished, status, made_by, django_capture_on_commit_callbacks
):
    stored(finished, status, made_by)
    sent_reviews()
    client.force_login(player)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url(finished))
    assert answer.status_code == 202
    assert answer.json()["status"] == "queued"
    review = GameReview.objects.get(game=finished)
    assert review.status == GameReview.Status.QUEUED and review.error == ""
    assert sent_reviews() == [finished.pk]


@pytest.mark.parametrize(
    ("status", "made_by"),
    [
        (GameReview.Status.DONE, "current"),
        (GameReview.Status.QUEUED, ""),
        (GameReview.Status.RUNNING, ""),
    ],
)
def test_a_current_queued_or_running_review_is_left_alone(
    client, player, finished, status, made_by
):
    stored(finished, status, version() if made_by == "current" else made_by)
    sent_reviews()
    client.force_login(player)
    answer = client.post(url(finished))
    assert answer.status_code == 409
    assert answer.json()["code"] == "review_current"
    assert GameReview.objects.get(game=finished).status == status
    assert sent_reviews() == []


def test_only_the_players_and_staff_may_ask(client, finished):
    stored(finished, GameReview.Status.FAILED, "")
    assert client.post(url(finished)).status_code == 401
    client.force_login(UserFactory())
    refused = client.post(url(finished))
    assert refused.status_code == 409 and refused.json()["code"] == "not_a_player"
    client.force_login(UserFactory(is_staff=True))
    assert client.post(url(finished)).status_code == 202


def test_a_game_being_played_is_refused_and_gets_no_review(client, player):
    game = japanese_game(player)
    client.force_login(player)
    answer = client.post(url(game))
    assert answer.status_code == 409
    assert answer.json()["code"] == "game_not_finished"
    assert not GameReview.objects.filter(game=game).exists()


def test_a_game_without_a_review_is_a_404(client, player, finished):
    GameReview.objects.filter(game=finished).delete()
    client.force_login(player)
    assert client.post(url(finished)).status_code == 404


def test_a_private_game_is_hidden_from_others(client, player):
    game = play_out(japanese_game(player, is_private=True).pk)
    stored(game, GameReview.Status.FAILED, "")
    client.force_login(UserFactory(is_staff=False))
    assert client.post(url(game)).status_code == 404


def test_asking_too_often_is_throttled(client, player, finished):
    stored(finished, GameReview.Status.DONE, version())
    client.force_login(player)
    cache.delete(f"throttle_review_request_{player.pk}")
    with override_settings(REVIEW_REQUEST_RATE="2/hour"):
        codes = [client.post(url(finished)).status_code for _ in range(3)]
        # Reading the review is not asking for it.
        assert client.get(url(finished)).status_code == 200
    assert codes == [409, 409, 429]


def test_the_request_is_in_the_schema_with_its_refusals(client):
    schema = client.get("/api/v1/schema/", {"format": "json"}).json()
    post = schema["paths"]["/api/v1/games/{id}/review/"]["post"]
    assert set(post["responses"]) >= {"202", "404", "409", "429"}
    refusal = post["responses"]["409"]["content"]["application/json"]["schema"]
    name = refusal["$ref"].rsplit("/", 1)[1]
    assert documented_codes(client)[name] == {
        "game_not_finished",
        "not_a_player",
        "review_current",
    }


def test_the_replay_page_configures_the_review_panel(client, player, finished):
    client.force_login(player)
    page = client.get(f"/games/{finished.pk}/replay/")
    config = embedded_json(page.content.decode(), "replay-config")["review"]
    assert config["url"] == url(finished)
    assert config["seats"] == [{"seat": 0, "name": config["seats"][0]["name"]}]
    assert config["seat"] == 0 and config["can_request"] is True
    assert config["version"] == version()
    assert 'id="review-body"' in page.content.decode()
    client.logout()
    config = embedded_json(
        client.get(f"/games/{finished.pk}/replay/").content.decode(), "replay-config"
    )["review"]
    assert config["seat"] == 0 and config["can_request"] is False


def test_a_game_without_a_review_shows_no_panel(client, player, finished):
    GameReview.objects.filter(game=finished).delete()
    page = client.get(f"/games/{finished.pk}/replay/").content.decode()
    assert embedded_json(page, "replay-config")["review"] is None
    assert 'id="review-body"' not in page


def test_the_table_page_of_a_game_being_played_shows_no_review(client, player):
    game = japanese_game(player)
    client.force_login(player)
    page = client.get(f"/tables/{game.table_id}/").content.decode()
    # The result's link to the review (shown once the game has ended) is
    # the only mention: nothing of a review itself.
    link = re.search(r'<a [^>]*id="result-review"[^>]*>[^<]*</a>', page)
    assert link is not None
    assert "review" not in page.replace(link.group(0), "").lower()


def test_the_socket_of_a_game_being_played_carries_no_review(player):
    game = japanese_game(player)
    # As if a review had been queued early: nothing of it reaches a seat.
    GameReview.objects.create(game=game)
    for seat in (0, None):
        assert "review" not in json.dumps(snapshot(game, seat)).lower()
