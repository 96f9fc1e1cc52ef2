"""Leaderboards, ranks and history as the pages and the API read them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import services as account_services
from games.rated import rated_result
from games.recent_games import player_recent_games
from ratings import selectors, services
from ratings.models import Rating
from tests.factories import UserFactory
from tests.ratings.helpers import rated, resigned_match

pytestmark = pytest.mark.django_db


def test_the_leaderboard_is_best_first_with_shared_ranks():
    a = rated(1700)
    b = rated(1600)
    c = rated(1600)
    d = rated(1500, games=3)
    rated(1900, category="japanese")

    rows = selectors.leaderboard("joker")

    assert [(r.rank, r.user_id, r.rating) for r in rows] == [
        (1, a.pk, 1700),
        (2, b.pk, 1600),
        (2, c.pk, 1600),
        (4, d.pk, 1500),
    ]
    assert [r.provisional for r in rows] == [False, False, False, True]


def test_a_page_further_down_starts_at_the_right_rank():
    for rating in (1800, 1700, 1700, 1700, 1600):
        rated(rating)
    page = selectors.leaderboard("joker", limit=2, offset=2)
    # The page starts inside a tie: its first row shares rank 2.
    assert [(r.rank, r.rating) for r in page] == [(2, 1700), (2, 1700)]
    assert [(r.rank, r.rating) for r in selectors.leaderboard("joker", offset=4)] == [
        (5, 1600)
    ]
    assert selectors.leaderboard("joker", offset=5) == []


def test_the_leaderboard_shows_display_names_in_two_queries_at_most():
    user = rated(1600, username="nino")
    account_services.profile_update(user=user, display_name="Nino", language="")
    rated(1500)
    with CaptureQueriesContext(connection) as queries:
        rows = selectors.leaderboard("joker")
    assert rows[0].display_name == "Nino" and rows[0].username == "nino"
    assert rows[1].display_name == rows[1].username
    assert len(queries) == 1


def test_a_player_s_rank_counts_the_ratings_above():
    top = rated(1800)
    tied = [rated(1600), rated(1600)]
    low = rated(1400)
    assert selectors.player_rank(user_id=top.pk, category="joker") == 1
    assert [selectors.player_rank(user_id=u.pk, category="joker") for u in tied] == [
        2,
        2,
    ]
    assert selectors.player_rank(user_id=low.pk, category="joker") == 4
    assert selectors.player_rank(user_id=low.pk, category="japanese") is None
    assert selectors.rank_of_rating("joker", 1700) == 2
    assert selectors.rank_of_rating("joker", 2000) == 1


def test_a_player_s_standings_in_category_order():
    user = rated(1550, category="japanese")
    Rating.objects.create(user=user, category="joker", rating=1490, games=2)
    rated(1600, category="japanese")
    rows = selectors.player_standings(user)
    assert [(r.category, r.rating, r.rank) for r in rows] == [
        ("joker", 1490, 1),
        ("japanese", 1550, 2),
    ]
    standing = selectors.player_standing(user_id=user.pk, category="japanese")
    assert (standing.rank, standing.rating) == (2, 1550)
    assert selectors.player_standing(user_id=user.pk, category="joker-pairs") is None


def test_history_is_oldest_first():
    a, b = UserFactory(), UserFactory()
    for loser in (1, 1, 0):
        game = resigned_match([a, b], loser=loser)
        services.rating_apply_game(rated_result(game.pk))
    history = list(selectors.rating_history(user_id=a.pk, category="japanese"))
    assert [c.delta > 0 for c in history] == [True, True, False]
    assert history[0].before == 1500
    assert all(x.after == y.before for x, y in zip(history, history[1:], strict=False))
    assert not selectors.rating_history(user_id=a.pk, category="joker").exists()


def test_searching_players():
    nino = UserFactory(username="nino")
    UserFactory(username="giorgi")
    UserFactory(username="ninoshvili", is_active=False)
    account_services.profile_update(user=nino, display_name="Tamar", language="")
    assert [u.username for u in selectors.players("NIN")] == ["nino"]
    assert [u.username for u in selectors.players("tam")] == ["nino"]
    assert [u.username for u in selectors.players()] == ["giorgi", "nino"]
    assert selectors.player_by_username("ninoshvili") is None


def test_recent_games_with_their_rating_changes():
    a, b = UserFactory(), UserFactory()
    rated_game = resigned_match([a, b], loser=1)
    services.rating_apply_game(rated_result(rated_game.pk))
    unrated = resigned_match([a, b], loser=0, ranked=False)

    games = player_recent_games(a, viewer=b)

    assert [g.game_id for g in games] == [unrated.pk, rated_game.pk]
    assert (games[0].category, games[0].place, games[0].delta) == (None, 2, None)
    assert (games[1].category, games[1].place, games[1].delta) == ("japanese", 1, 20)
    assert games[1].rating == 1520 and games[1].players == 2


def test_private_games_are_listed_to_the_player_only():
    a, b = UserFactory(), UserFactory()
    game = resigned_match([a, b])
    game.table.is_private = True
    game.table.save()
    assert player_recent_games(a, viewer=a)[0].private
    assert player_recent_games(a, viewer=b) == []
    assert player_recent_games(a) == []
