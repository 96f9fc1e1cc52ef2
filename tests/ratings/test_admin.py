"""The operators' view of ratings: read-only, with a revert that goes through
the service."""

import pytest
from django.urls import reverse

from games.rated import rated_result
from ratings import services
from ratings.models import Rating, RatingChange
from tests.factories import UserFactory
from tests.ratings.helpers import resigned_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_game():
    game = resigned_match([UserFactory(username="nino"), UserFactory()])
    services.rating_apply_game(rated_result(game.pk))
    return game


def test_ratings_are_listed_searched_and_filtered(client, staff_user, rated_game):
    client.force_login(staff_user)
    url = reverse("admin:ratings_rating_changelist")

    page = client.get(url, {"q": "nino"}).content.decode()
    assert "nino" in page and "1520" in page
    assert client.get(url, {"category": "joker"}).status_code == 200
    assert "1520" not in client.get(url, {"category": "joker"}).content.decode()


def test_ratings_cannot_be_edited_by_hand(client, staff_user, rated_game):
    client.force_login(staff_user)
    rating = Rating.objects.get(user__username="nino")
    url = reverse("admin:ratings_rating_change", args=[rating.pk])
    assert client.get(url).status_code == 200  # view only
    client.post(url, {"rating": 3000, "games": 1, "peak": 3000})
    rating.refresh_from_db()
    assert rating.rating == 1520
    assert client.get(reverse("admin:ratings_rating_add")).status_code == 403
    assert client.get(reverse("admin:ratings_ratingchange_add")).status_code == 403


def test_reverting_games_from_the_changes(client, staff_user, rated_game):
    client.force_login(staff_user)
    url = reverse("admin:ratings_ratingchange_changelist")
    assert str(rated_game.pk) in client.get(url).content.decode()

    change = RatingChange.objects.filter(game=rated_game).first()
    response = client.post(
        url,
        {"action": "revert_games", "_selected_action": [change.pk]},
        follow=True,
    )

    assert "Reverted the ratings of 1 game." in response.content.decode()
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_a_revert_whose_ratings_vanish_is_refused_and_reported(
    client, staff_user, rated_game, request
):
    client.force_login(staff_user)
    change = RatingChange.objects.filter(game=rated_game).first()
    before = sorted(Rating.objects.values_list("user_id", "rating"))
    request.getfixturevalue("ratings_deleted_meanwhile")

    response = client.post(
        reverse("admin:ratings_ratingchange_changelist"),
        {"action": "revert_games", "_selected_action": [change.pk]},
        follow=True,
    )

    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        f"Game {rated_game.pk} was not reverted: a rating of japanese was "
        "deleted meanwhile: try again."
    ]
    assert RatingChange.objects.filter(game=rated_game).count() == 2
    assert sorted(Rating.objects.values_list("user_id", "rating")) == before
