"""Rating finished games and reverting them, on games played through the
games services."""

import threading

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db import IntegrityError, connections, transaction
from django.urls import reverse

from common.api_errors import exception_handler
from common.errors import ApplicationError
from games.models import Game
from games.rated import rated_result
from ratings import elo, selectors, services
from ratings.models import Rating, RatingChange, RatingCount
from tests.factories import StaffUserFactory, UserFactory
from tests.games.helpers import abort, play_out, resign, seat_user
from tests.ratings.helpers import (
    assert_ratings_add_up,
    make_ranked,
    played_game,
    resigned_match,
    seated_game,
)


def rating_of(user, category):
    return Rating.objects.get(user=user, category=category)


@pytest.mark.django_db
def test_a_resigned_japanese_match_is_rated():
    winner, loser = UserFactory(), UserFactory()
    game = resigned_match([winner, loser], loser=1)

    changes = services.rating_apply_game(rated_result(game.pk))

    # Both provisional (K 40) at 1500: +20 and -20.
    assert [(c.user, c.before, c.delta, c.after) for c in changes] == [
        (winner, 1500, 20, 1520),
        (loser, 1500, -20, 1480),
    ]
    assert {c.category for c in changes} == {"japanese"}
    won, lost = rating_of(winner, "japanese"), rating_of(loser, "japanese")
    assert (won.rating, won.games, won.peak, won.provisional) == (1520, 1, 1520, True)
    assert (lost.rating, lost.games, lost.peak) == (1480, 1, 1500)
    assert_ratings_add_up()


@pytest.mark.django_db
def test_applying_a_game_twice_counts_it_once():
    game = resigned_match()
    assert len(services.rating_apply_game(rated_result(game.pk))) == 2
    assert services.rating_apply_game(rated_result(game.pk)) == []
    assert RatingChange.objects.filter(game=game).count() == 2
    assert sorted(Rating.objects.values_list("rating", flat=True)) == [1480, 1520]
    assert_ratings_add_up()


@pytest.mark.django_db
def test_the_database_refuses_a_second_change_for_a_game_and_player():
    game = resigned_match()
    (change, _) = services.rating_apply_game(rated_result(game.pk))
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingChange.objects.create(
            game=game,
            user=change.user,
            category="japanese",
            before=1520,
            after=1540,
            delta=20,
        )


@pytest.mark.django_db
def test_established_players_move_by_the_standard_k():
    a, b = UserFactory(), UserFactory()
    for user in (a, b):
        Rating.objects.create(user=user, category="japanese", games=25)
    services.rating_counts_rebuild()
    game = resigned_match([a, b], loser=0)
    services.rating_apply_game(rated_result(game.pk))
    assert rating_of(a, "japanese").rating == 1490
    assert rating_of(b, "japanese").rating == 1510
    assert rating_of(b, "japanese").provisional is False
    assert set(RatingCount.objects.values_list("rating", "players")) == {
        (1500, 0),
        (1490, 1),
        (1510, 1),
    }


@pytest.mark.django_db
def test_the_counts_per_rating_follow_every_change():
    users = [UserFactory() for _ in range(3)]
    games = []
    for n, (one, two) in enumerate([(0, 1), (1, 2), (2, 0), (0, 1), (0, 2)]):
        game = resigned_match([users[one], users[two]], loser=n % 2)
        services.rating_apply_game(rated_result(game.pk))
        games.append(game)
        assert_ratings_add_up()
    for game in games[1::2]:
        services.rating_revert_game(game_id=game.pk)
        assert_ratings_add_up()
    for user in users:
        rating = rating_of(user, "japanese").rating
        higher = Rating.objects.filter(category="japanese", rating__gt=rating)
        assert selectors.player_rank(user_id=user.pk, category="japanese") == (
            higher.count() + 1
        )


@pytest.mark.django_db
def test_the_counts_can_be_rebuilt_from_the_ratings():
    game = resigned_match()
    services.rating_apply_game(rated_result(game.pk))
    RatingCount.objects.update(players=7)
    RatingCount.objects.create(category="joker", rating=1234, players=3)

    assert services.rating_counts_rebuild() == 2

    assert_ratings_add_up()
    assert not RatingCount.objects.filter(category="joker").exists()


@pytest.mark.django_db
def test_a_four_player_game_is_rated_by_places():
    game = played_game("joker")
    users = [seat_user(game, n) for n in range(4)]
    places = game.result["places"]

    changes = {c.user: c for c in services.rating_apply_game(rated_result(game.pk))}

    expected = elo.free_for_all([1500] * 4, places, [40] * 4)
    assert [changes[u].delta for u in users] == expected
    assert {c.category for c in changes.values()} == {"joker"}
    best = min(range(4), key=lambda n: places[n])
    assert changes[users[best]].delta > 0
    assert_ratings_add_up()


@pytest.mark.django_db
def test_partners_share_their_side_s_change():
    game = played_game("joker-pairs")
    places = game.result["places"]
    changes = services.rating_apply_game(rated_result(game.pk))
    deltas = [c.delta for c in sorted(changes, key=lambda c: c.user_id)]

    assert deltas[0] == deltas[2] and deltas[1] == deltas[3]
    if places[0] == places[1]:
        assert deltas == [0, 0, 0, 0]
    else:
        assert deltas[0] == -deltas[1] == (20 if places[0] < places[1] else -20)
    assert {c.category for c in changes} == {"joker-pairs"}


@pytest.mark.django_db
def test_a_leaver_is_rated_last():
    users = [UserFactory() for _ in range(4)]
    game = seated_game(users, "georgian-club", {"schedule": "nines"})
    resign(game_id=game.pk, user=users[1])
    play_out(game.pk)
    game = make_ranked(game)
    assert game.result["places"][1] == 4

    changes = {
        c.user: c.delta for c in services.rating_apply_game(rated_result(game.pk))
    }

    assert changes[users[1]] == min(changes.values()) < 0
    assert rating_of(users[1], "joker-nines").games == 1


@pytest.mark.django_db
def test_a_game_with_a_bot_is_unrated():
    game = resigned_match(loser=0, bots=1)
    assert services.rating_apply_game(rated_result(game.pk)) == []
    assert not Rating.objects.exists()


@pytest.mark.django_db
def test_a_game_off_the_preset_is_unrated():
    game = resigned_match(options={"target": 11})
    assert services.rating_apply_game(rated_result(game.pk)) == []
    assert not RatingChange.objects.exists()


@pytest.mark.django_db
def test_unfinished_and_aborted_games_are_unrated():
    users = [UserFactory(), UserFactory()]
    game = make_ranked(seated_game(users, "japanese", {"target": 21}))
    # The games hand the ratings nothing to rate.
    assert rated_result(game.pk) is None
    abort(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert rated_result(game.pk) is None
    assert not Rating.objects.exists()


@pytest.mark.django_db
def test_a_game_at_a_casual_table_is_unrated():
    game = resigned_match(ranked=False)
    assert services.rating_apply_game(rated_result(game.pk)) == []
    assert not Rating.objects.exists()


@pytest.mark.django_db
def test_reverting_a_game_restores_the_ratings():
    a, b = UserFactory(), UserFactory()
    first = resigned_match([a, b], loser=1)
    second = resigned_match([a, b], loser=0)
    services.rating_apply_game(rated_result(first.pk))
    (a_second, b_second) = services.rating_apply_game(rated_result(second.pk))
    assert rating_of(a, "japanese").peak == 1520

    assert services.rating_revert_game(game_id=first.pk) == 2

    # What the second game did stays; the first is gone from rating and peak.
    a_rating, b_rating = rating_of(a, "japanese"), rating_of(b, "japanese")
    assert a_rating.rating == 1500 + a_second.delta
    assert b_rating.rating == 1500 + b_second.delta
    assert (a_rating.games, b_rating.games) == (1, 1)
    assert a_rating.peak == max(1500, a_second.after)
    assert not RatingChange.objects.filter(game=first).exists()
    assert_ratings_add_up()

    # Reverting again does nothing; reverting the last game removes the ratings.
    assert services.rating_revert_game(game_id=first.pk) == 0
    assert services.rating_revert_game(game_id=second.pk) == 2
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()
    # A reverted game can be applied again.
    assert len(services.rating_apply_game(rated_result(first.pk))) == 2
    assert rating_of(a, "japanese").rating == 1520


@pytest.mark.django_db
def test_reverting_an_unrated_game_does_nothing():
    game = resigned_match(options={"target": 11})
    assert services.rating_revert_game(game_id=game.pk) == 0


# Two processes at once, on PostgreSQL's row locks.


def at_once(*calls):
    """Run each call in its own thread and database connection, released
    together; returns their results in order and re-raises the first error."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)
    errors: list = []

    def run(n, call):
        try:
            barrier.wait(timeout=10)
            results[n] = call()
        except Exception as error:  # reported to the test below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(n, call)) for n, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    if errors:
        raise errors[0]
    return results


@pytest.mark.django_db(transaction=True)
def test_two_processes_applying_one_game_count_it_once():
    for _ in range(5):
        game = resigned_match()
        results = at_once(
            lambda g=game: services.rating_apply_game(rated_result(g.pk)),
            lambda g=game: services.rating_apply_game(rated_result(g.pk)),
        )
        assert sorted(len(r) for r in results) == [0, 2]
        assert RatingChange.objects.filter(game=game).count() == 2
    assert_ratings_add_up()


@pytest.mark.django_db(transaction=True)
def test_first_games_of_one_player_applied_at_once_both_count():
    newcomer = UserFactory()
    one = resigned_match([newcomer, UserFactory()], loser=1)
    two = resigned_match([newcomer, UserFactory()], loser=1)

    at_once(
        lambda: services.rating_apply_game(rated_result(one.pk)),
        lambda: services.rating_apply_game(rated_result(two.pk)),
    )

    rating = rating_of(newcomer, "japanese")
    assert rating.games == 2
    first, second = RatingChange.objects.filter(user=newcomer).order_by("id")
    assert second.before == first.after
    assert rating.rating == second.after
    assert_ratings_add_up()


@pytest.mark.django_db(transaction=True)
def test_apply_and_revert_at_once_leave_a_consistent_state():
    # Reverting a player's only game deletes the rating that the other game
    # is waiting to lock; that game starts again with a fresh rating.
    for _ in range(5):
        a, b = UserFactory(), UserFactory()
        one = resigned_match([a, b], loser=1)
        two = resigned_match([b, a], loser=1)
        services.rating_apply_game(rated_result(one.pk))

        at_once(
            lambda one=one: services.rating_revert_game(game_id=one.pk),
            lambda two=two: services.rating_apply_game(rated_result(two.pk)),
        )

        assert not RatingChange.objects.filter(game=one).exists()
        assert RatingChange.objects.filter(game=two).count() == 2
        assert_ratings_add_up()


@pytest.mark.django_db
def test_ratings_that_keep_vanishing_refuse_the_game_as_an_application_error(
    ratings_deleted_meanwhile,
):
    game = resigned_match()

    with pytest.raises(ApplicationError) as caught:
        services.rating_apply_game(rated_result(game.pk))

    assert isinstance(caught.value, services.RatingVanished)
    assert caught.value.code == "ratings_busy"
    assert caught.value.status == 409
    assert str(caught.value) == "a rating of japanese was deleted meanwhile: try again"
    assert not RatingChange.objects.exists()


def test_the_api_answers_vanished_ratings_as_a_conflict_with_their_code():
    error = services.RatingVanished(
        "a rating of joker was deleted meanwhile: try again"
    )

    response = exception_handler(error, {})

    assert response.status_code == 409
    assert response.data == {
        "code": "ratings_busy",
        "detail": "a rating of joker was deleted meanwhile: try again",
    }


@pytest.mark.django_db
def test_an_annulment_whose_ratings_vanish_is_refused_and_reported(client, request):
    game = resigned_match()
    services.rating_apply_game(rated_result(game.pk))
    before = sorted(Rating.objects.values_list("user_id", "rating"))
    client.force_login(StaffUserFactory())
    # From here on: the game is rated first, and its revert meets them gone.
    request.getfixturevalue("ratings_deleted_meanwhile")

    response = client.post(
        reverse("admin:games_game_changelist"),
        {"action": "annul_games", ACTION_CHECKBOX_NAME: [game.pk], "apply": "1"},
        follow=True,
    )

    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        f"Game {game.pk} was not annulled: a rating of japanese was deleted "
        "meanwhile: try again."
    ]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert RatingChange.objects.filter(game=game).count() == 2
    assert sorted(Rating.objects.values_list("user_id", "rating")) == before
