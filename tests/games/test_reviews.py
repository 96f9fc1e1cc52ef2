"""Deal reviews of finished games on the site (docs/review.md): queued
with the game's last step and sent to the reviews queue once it commits,
made by the task and stored with their version, served by the API only
once the game is over."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery import current_app
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games import reviews, selectors
from games.models import Game, GameReview
from joker.review import version
from tests.factories import UserFactory
from tests.games.helpers import abort, play_out
from tests.games.test_table_pages import japanese_game

pytestmark = pytest.mark.django_db


def url(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/review/"


def sent_reviews() -> list[int]:
    """The game ids of the review tasks waiting on the reviews queue (taken
    off it)."""
    found = []
    with current_app.connection_for_read() as connection:
        queue = connection.SimpleQueue(settings.REVIEW_QUEUE)
        try:
            while True:
                message = queue.get(timeout=0.5)
                assert message.headers["task"] == reviews.TASK
                found.append(message.decode()[0][0])
                message.ack()
        except queue.Empty:
            pass
        finally:
            queue.close()
    return found


@pytest.fixture
def player():
    return UserFactory()


def test_a_finished_game_is_queued_sent_made_and_served(
    client, player, django_capture_on_commit_callbacks
):
    sent_reviews()  # whatever an earlier test left
    game = japanese_game(player)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_out(game.pk)
    assert game.status == Game.Status.FINISHED
    review = GameReview.objects.get(game=game)
    assert review.status == GameReview.Status.QUEUED
    assert sent_reviews() == [game.pk]
    queued = client.get(url(game)).json()
    assert queued == {
        "game": game.pk,
        "status": "queued",
        "version": "",
        "review": None,
    }

    assert reviews.make(game.pk) == GameReview.Status.DONE
    done = client.get(url(game)).json()
    assert done["status"] == "done" and done["version"] == version()
    (seat,) = done["review"]["seats"]  # the person's; the bot is not reviewed
    assert seat["seat"] == 0 and seat["unit"] == "tricks"
    assert seat["deals"] == settings.REVIEW_DEALS
    assert {d["kind"] for d in seat["decisions"]} == {"trump", "card"}
    assert len(seat["per_deal"]) == len(selectors.game_record(game)["deals"])
    # Made again by the same version, it is kept as it is.
    stored = GameReview.objects.get(game=game).updated_at
    assert reviews.make(game.pk) == GameReview.Status.DONE
    assert GameReview.objects.get(game=game).updated_at == stored


def test_a_game_being_played_has_no_review(client, player):
    game = japanese_game(player)
    answer = client.get(url(game))
    assert answer.status_code == 409
    assert answer.json()["code"] == "game_not_finished"
    assert not GameReview.objects.filter(game=game).exists()


def test_a_game_called_off_has_no_review(
    client, player, django_capture_on_commit_callbacks
):
    sent_reviews()
    game = japanese_game(player)
    with django_capture_on_commit_callbacks(execute=True):
        abort(game_id=game.pk, user=player)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert client.get(url(game)).status_code == 404
    assert sent_reviews() == []
    assert client.get("/api/v1/games/999999/review/").status_code == 404


def test_a_private_game_s_review_is_its_players_only(client, player):
    game = japanese_game(player, is_private=True)
    play_out(game.pk)
    assert client.get(url(game)).status_code == 404
    client.force_login(player)
    assert client.get(url(game)).status_code == 200


def test_a_review_that_cannot_be_made_fails_and_says_why(player):
    game = japanese_game(player)
    GameReview.objects.create(game=game)  # as if queued while it was played
    assert reviews.make(game.pk) == GameReview.Status.FAILED
    failed = GameReview.objects.get(game=game)
    assert "being played" in failed.error and failed.data is None


def test_the_review_task_goes_to_the_reviews_queue():
    route = current_app.amqp.router.route({}, "games.tasks.review")
    assert route["queue"].name == settings.REVIEW_QUEUE
    assert current_app.amqp.router.route({}, "games.tasks.sweep")["queue"].name != (
        settings.REVIEW_QUEUE
    )


def test_the_result_on_the_table_page_links_to_the_review(client):
    """The player reaches the review from the game's result, as from the
    replay: a link to the replay page's review section."""
    user = UserFactory()
    game = japanese_game(user)
    client.force_login(user)
    content = client.get(reverse("games:table", args=[game.table_id])).content.decode()
    assert f'href="{reverse("games:replay", args=[game.pk])}#review"' in content


def test_a_task_for_a_game_that_is_gone_does_nothing(player):
    """A review task outlives its game (deleted since it was sent, or a
    queue kept over a database made again): it ends quietly."""
    game = play_out(japanese_game(player).pk)
    game_id = game.pk
    game.table.delete()
    assert not GameReview.objects.filter(game_id=game_id).exists()
    assert reviews.make(game_id) == "gone"


def test_a_review_whose_task_was_lost_is_sent_again(player):
    """Queued long ago and never begun (its message lost with a broker that
    failed over, say): beat's ``send_queued`` sends it again; a review
    queued a moment ago is left to its own task."""
    lost = play_out(japanese_game(player).pk)
    recent = play_out(japanese_game(player).pk)
    sent_reviews()  # the tasks sent as the games ended, taken off the queue
    long_ago = timezone.now() - reviews.RESEND_AFTER - timedelta(minutes=1)
    GameReview.objects.filter(game=lost).update(updated_at=long_ago)

    assert reviews.send_queued() == 1
    assert sent_reviews() == [lost.pk]
    assert GameReview.objects.get(game=recent).status == GameReview.Status.QUEUED


def test_a_review_left_running_by_a_dead_worker_is_sent_again_and_made(player):
    """A worker killed in the middle of a review leaves it ``running``: once
    it has run far longer than any review takes, it is sent again, and made.
    One running for a shorter time is left to its worker."""
    dead = play_out(japanese_game(player).pk)
    busy = play_out(japanese_game(player).pk)
    sent_reviews()
    GameReview.objects.filter(game__in=[dead, busy]).update(
        status=GameReview.Status.RUNNING
    )
    long_ago = timezone.now() - reviews.RUNNING_AT_MOST - timedelta(minutes=1)
    GameReview.objects.filter(game=dead).update(updated_at=long_ago)

    assert reviews.send_queued() == 1
    assert sent_reviews() == [dead.pk]
    assert reviews.make(dead.pk) == GameReview.Status.DONE
    assert GameReview.objects.get(game=busy).status == GameReview.Status.RUNNING
