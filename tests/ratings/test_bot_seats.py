"""Games rated with bots (docs/ratings.md, "Bot seats"): each bot is an
opponent of its level's fixed rating, and only the people's ratings move."""

from __future__ import annotations

import pytest

from games import services as games
from games.models import Game, Seat
from games.rated import rated_result
from ratings import elo
from ratings.categories import preset
from ratings.models import Rating, RatingChange
from ratings.services import rating_apply_game
from tests.factories import UserFactory
from tests.games.helpers import play_out

pytestmark = pytest.mark.django_db


def with_bots(category: str, players: list, bot: str, *, rated_with_bots=True):
    profile, options = preset(category)
    table = games.table_create_seated(
        profile=profile,
        options=options,
        turn_seconds=30,
        players=players,
        created_by=next(p for p in players if p is not None),
        ranked=True,
        rated_with_bots=rated_with_bots,
        managed=False,
        bot=bot,
    )
    return play_out(Game.objects.get(table=table).pk)


def test_a_lone_player_is_rated_against_three_bots_of_fixed_rating():
    user = UserFactory()
    game = with_bots("joker", [None, user, None, None], "strong")

    [change] = RatingChange.objects.filter(game=game)
    expected = elo.game_changes(
        [1800, 1500, 1800, 1800], [0, 0, 0, 0], game.result["places"]
    )[1]
    assert (change.user_id, change.before, change.delta) == (user.pk, 1500, expected)
    assert Rating.objects.get(user=user).games == 1
    # Applying again changes nothing.
    assert rating_apply_game(rated_result(game.pk)) == []


def test_partners_against_two_bots_share_their_side_s_change():
    first, second = UserFactory(), UserFactory()
    game = with_bots("joker-pairs", [first, None, second, None], "easy")

    changes = {c.user_id: c.delta for c in RatingChange.objects.filter(game=game)}
    expected = elo.game_changes(
        [1500, 1200, 1500, 1200], [0] * 4, game.result["places"], [0, 1, 0, 1]
    )
    assert changes == {first.pk: expected[0], second.pk: expected[2]}


def test_a_ranked_table_with_bots_is_unrated_unless_rated_with_bots():
    # The tournaments' tables of four with a bot: unrated, as before.
    game = with_bots("joker", [UserFactory(), None, None, None], "practice",
                     rated_with_bots=False)  # fmt: skip
    assert not RatingChange.objects.filter(game=game).exists()


def test_a_bot_level_without_a_fixed_rating_leaves_the_game_unrated():
    game = with_bots("joker", [UserFactory(), None, None, None], "autopilot")
    assert Seat.objects.filter(table=game.table, bot="autopilot").count() == 3
    assert not RatingChange.objects.filter(game=game).exists()
