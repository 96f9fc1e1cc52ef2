"""Finished games for the ratings tests, played through the games services."""

from __future__ import annotations

from collections import Counter

from games import services
from games.models import Game, Table
from ratings import elo
from ratings.categories import preset
from ratings.models import Rating, RatingChange, RatingCount
from ratings.services import rating_counts_rebuild
from tests.factories import UserFactory
from tests.games.helpers import play_out, resign, seat_user


def seated_game(users, profile: str, options: dict | None = None, *, bots=0) -> Game:
    """A game under way at a casual table, with ``users`` in the first seats,
    in order, and autopilot bots in the last ``bots`` seats."""
    table = services.table_create(user=users[0], profile=profile, options=options)
    for number, user in enumerate(users[1:], start=1):
        services.seat_take(
            table_id=table.pk, user=user, number=number, invite_code=table.invite_code
        )
    for number in range(len(users), len(users) + bots):
        services.seat_add_bot(
            table_id=table.pk, user=users[0], number=number, bot="autopilot"
        )
    return Game.objects.get(table=table)


def make_ranked(game: Game, ranked: bool = True) -> Game:
    """Flag the game's table ranked once the game is over, so that these tests
    apply the game themselves (a game that ends at a ranked table is rated
    as it ends) and may put bots or repeat players at it."""
    Table.objects.filter(pk=game.table_id).update(ranked=ranked)
    game.refresh_from_db()
    return game


def played_game(category: str, users=None) -> Game:
    """A game of ``category``'s preset with a person in every seat, played to
    its end by each player's first legal choice, at a ranked table, not yet
    rated."""
    profile, options = preset(category)
    if users is None:
        users = [UserFactory() for _ in range(2 if profile == "japanese" else 4)]
    game = seated_game(users, profile, options)
    play_out(game.pk)
    return make_ranked(game)


def resigned_match(
    users=None, *, loser: int = 1, options=None, bots=0, ranked=True
) -> Game:
    """A Japanese Joker match (to 21 unless ``options`` say otherwise) that
    seat ``loser`` resigns at once: finished, seat ``loser`` in second place,
    at a ranked table (unless ``ranked`` is off), not yet rated."""
    if users is None:
        users = [UserFactory() for _ in range(2 - bots)]
    options = {"target": 21} if options is None else options
    game = seated_game(users, "japanese", options, bots=bots)
    resign(game_id=game.pk, user=seat_user(game, loser))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return make_ranked(game, ranked)


def rated(rating: int, category: str = "joker", games: int = 30, **user):
    """A player with a rating set by hand (and the counts per rating redone,
    as after loading ratings), for reading tests."""
    user = UserFactory(**user)
    Rating.objects.create(
        user=user, category=category, rating=rating, games=games, peak=rating
    )
    rating_counts_rebuild()
    return user


def assert_ratings_add_up() -> None:
    """Every rating is the start value plus its changes, counted in games,
    and the counts per rating value match the ratings."""
    for rating in Rating.objects.all():
        changes = RatingChange.objects.filter(
            user_id=rating.user_id, category=rating.category
        )
        assert rating.rating == elo.START + sum(c.delta for c in changes)
        assert rating.games == changes.count() > 0
        assert rating.peak >= rating.rating
    counted = {
        (c.category, c.rating): c.players
        for c in RatingCount.objects.exclude(players=0)
    }
    assert counted == Counter(Rating.objects.values_list("category", "rating"))
