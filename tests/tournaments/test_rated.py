"""Tournament games between people are rated in the category of their rules,
once per game; a short Japanese match, a table with a bot, a bye and an
unrated tournament rate nobody; a forfeit is a loss."""

from __future__ import annotations

from collections import Counter

import pytest

from games.models import Game
from games.rated import rated_result
from ratings.models import Rating, RatingChange
from tests.games.helpers import play_out
from tournaments.models import Board

from .support import (
    make_tournament,
    play_round,
    play_to_the_end,
    players,
    register_all,
    start_now,
)

pytestmark = pytest.mark.django_db


def games_of(tournament) -> list[Game]:
    boards = Board.objects.filter(round__tournament=tournament, table__isnull=False)
    return list(Game.objects.filter(table__in=boards.values("table")))


def full_japanese(rounds: int, **fields):
    """A Swiss tournament of whole Japanese Joker matches (to 21)."""
    return make_tournament(
        "japanese", format="swiss", rounds=rounds, short_match=False, **fields
    )


@pytest.mark.slow
def test_a_swiss_tournament_rates_each_game_once_and_the_bye_nobody():
    users = players(5)
    tournament = make_tournament(
        "japanese", format="swiss", rounds=2, short_match=False
    )
    assert tournament.rating_category == "japanese"
    register_all(tournament, users)
    start_now(tournament)

    play_to_the_end(tournament)

    played = games_of(tournament)
    assert len(played) == 4  # two games a round, and a bye
    changes = RatingChange.objects.filter(game__in=played)
    assert Counter(change.game_id for change in changes) == {
        game.pk: 2 for game in played
    }
    assert {change.category for change in changes} == {"japanese"}
    games_per_player = Counter(change.user_id for change in changes)
    for user in users:
        rating = Rating.objects.get(user=user, category="japanese")
        assert rating.games == games_per_player[user.pk]
        mine = changes.filter(user=user).order_by("created_at", "pk")
        assert rating.rating == 1500 + sum(change.delta for change in mine)
    assert Board.objects.filter(round__tournament=tournament, is_bye=True).count() == 2


def test_taking_a_result_in_again_rates_nothing_more():
    users = players(2)
    tournament = make_tournament(
        "japanese", format="swiss", rounds=1, short_match=False
    )
    register_all(tournament, users)
    start_now(tournament)
    play_to_the_end(tournament)
    (game,) = games_of(tournament)

    from ratings import services as ratings

    assert ratings.rating_apply_game(rated_result(game.pk)) == []
    assert RatingChange.objects.filter(game=game).count() == 2


def test_a_forfeit_is_a_rated_loss():
    users = players(2)
    tournament = make_tournament(
        "japanese", format="swiss", rounds=1, short_match=False
    )
    register_all(tournament, users)
    start_now(tournament)
    (game,) = games_of(tournament)
    absent = users[1]

    play_out(game.pk, absent=frozenset({absent.pk}))  # three timeouts forfeit

    game.refresh_from_db()
    change = RatingChange.objects.get(game=game, user=absent)
    assert change.delta < 0
    assert game.result["places"][game.table.seats.get(user=absent).number] == 2


def test_short_japanese_matches_and_unrated_tournaments_rate_nobody():
    short = make_tournament("japanese", format="swiss", rounds=1, short_match=True)
    unrated = full_japanese(1, rated=False)
    assert short.rating_category is None and unrated.rating_category is None
    for tournament in (short, unrated):
        register_all(tournament, players(2))
        start_now(tournament)
        play_to_the_end(tournament)
        assert not RatingChange.objects.filter(game__in=games_of(tournament))


@pytest.mark.slow
def test_tables_of_four_rate_the_tables_of_people_not_those_with_a_bot():
    # The short Joker plays the nines schedule: rated as Joker nines.
    tournament = make_tournament(
        "joker", format="multitable", rounds=1, short_match=True
    )
    assert tournament.rating_category == "joker-nines"
    register_all(tournament, players(7))  # one table of four, one with a bot
    start_now(tournament)
    play_round(tournament)

    rated = Counter(
        RatingChange.objects.filter(game__in=games_of(tournament)).values_list(
            "game_id", flat=True
        )
    )
    with_bot = [
        game.pk
        for game in games_of(tournament)
        if game.table.seats.exclude(bot="").exists()
    ]
    assert len(with_bot) == 1
    assert sorted(rated.values()) == [4]
    assert with_bot[0] not in rated


def test_the_page_and_the_api_say_whether_games_are_rated(client):
    rated = full_japanese(1)
    short = make_tournament("japanese", format="swiss", rounds=1, short_match=True)

    page = client.get(f"/tournaments/{rated.pk}/").content.decode()
    assert "rated in the Japanese Joker rating" in page
    assert (
        "Its games are not rated."
        in client.get(f"/tournaments/{short.pk}/").content.decode()
    )
    body = client.get(f"/api/v1/tournaments/{short.pk}/").json()
    assert (body["rated"], body["rating_category"]) == (True, None)
    body = client.get(f"/api/v1/tournaments/{rated.pk}/").json()
    assert body["rating_category"] == "japanese"
