"""Who may open a ranked table and who may sit at one."""

from __future__ import annotations

import pytest

from coins import services as coins
from common.errors import ApplicationError, NotAllowed
from games import services
from games.models import Game, Seat, Table
from games.stakes import STAKE_CHOICES
from ratings.categories import CATEGORIES, preset
from tests.factories import UserFactory
from tests.games.helpers import resign
from tests.ranked.helpers import (
    balance,
    established,
    ranked_game,
    ranked_table,
    take_coins,
)

pytestmark = pytest.mark.django_db


# Opening a ranked table


@pytest.mark.parametrize("category", list(CATEGORIES))
def test_a_ranked_table_plays_each_category_preset(category):
    profile, options = preset(category)

    table = services.table_create(
        user=UserFactory(), profile=profile, options=options, ranked=True, stake=10
    )

    assert (table.ranked, table.stake, table.profile) == (True, 10, profile)
    assert table.options == options


@pytest.mark.parametrize(
    ("profile", "options"),
    [
        ("japanese", {"target": 11}),
        ("georgian-club", {"hisht_penalty": "500"}),
        ("georgian-club", {"deductions": False}),
        ("georgian-tvaladze", {}),
        ("live-games", {}),
    ],
)
def test_a_ranked_table_refuses_other_rules(profile, options):
    with pytest.raises(ApplicationError) as refused:
        services.table_create(
            user=UserFactory(), profile=profile, options=options, ranked=True
        )

    assert refused.value.code == "bad_options"
    assert not Table.objects.exists()


def test_only_ranked_tables_have_stakes():
    with pytest.raises(ApplicationError, match="only ranked tables have stakes"):
        services.table_create(
            user=UserFactory(), profile="japanese", options={"target": 21}, stake=10
        )
    assert not Table.objects.exists()


@pytest.mark.parametrize("stake", [-10, 5, 2000])
def test_a_stake_is_one_of_the_levels(stake):
    assert stake not in STAKE_CHOICES
    with pytest.raises(ApplicationError, match="the stake cannot be"):
        services.table_create(
            user=UserFactory(),
            profile="japanese",
            options={"target": 21},
            ranked=True,
            stake=stake,
        )
    assert not Table.objects.exists()


def test_a_casual_table_without_stake_still_opens():
    table = services.table_create(
        user=UserFactory(), profile="japanese", options={"target": 11}
    )
    assert (table.ranked, table.stake) == (False, 0)


@pytest.mark.parametrize("bot", ["practice", "autopilot"])
def test_a_ranked_table_refuses_bots(bot):
    table, users = ranked_table("joker-nines")

    with pytest.raises(NotAllowed) as refused:
        services.seat_add_bot(table_id=table.pk, user=users[0], number=3, bot=bot)

    assert refused.value.code == "ranked_no_bots"
    assert Seat.objects.get(table=table, number=3).is_empty
    assert table.status == Table.Status.OPEN


# Sitting down


def test_a_player_without_enough_coins_cannot_sit_and_nothing_changes():
    table, users = ranked_table("japanese", stake=100)
    poor = users[1]
    take_coins(poor, balance(poor) - 99)

    with pytest.raises(NotAllowed) as refused:
        services.seat_take(table_id=table.pk, user=poor, number=1)

    assert refused.value.code == "few_coins"
    assert Seat.objects.get(table=table, number=1).user is None
    assert not Game.objects.exists()
    assert balance(poor) == 99
    assert balance(users[0]) == coins.welcome_coins()


def test_the_creator_without_enough_coins_opens_nothing():
    poor = UserFactory()
    take_coins(poor, balance(poor) - 5)

    with pytest.raises(NotAllowed) as refused:
        services.table_create(
            user=poor,
            profile="japanese",
            options={"target": 21},
            ranked=True,
            stake=10,
        )

    assert refused.value.code == "few_coins"
    assert not Table.objects.exists()


def test_exactly_the_stake_is_enough():
    table, users = ranked_table("japanese", stake=100)
    take_coins(users[1], balance(users[1]) - 100)

    services.seat_take(table_id=table.pk, user=users[1], number=1)

    assert Game.objects.filter(table=table).exists()
    assert balance(users[1]) == 0


def test_a_high_stake_needs_an_established_rating():
    veteran = established("japanese")
    newcomer = established("japanese", games=19)
    table, _ = ranked_table("japanese", stake=500, users=[veteran, newcomer])

    with pytest.raises(NotAllowed) as refused:
        services.seat_take(table_id=table.pk, user=newcomer, number=1)
    assert refused.value.code == "rating_needed"

    unrated = UserFactory()
    with pytest.raises(NotAllowed):
        services.seat_take(table_id=table.pk, user=unrated, number=1)
    assert Seat.objects.get(table=table, number=1).user is None


def test_an_established_rating_in_another_category_does_not_count():
    veteran = established("japanese")
    with pytest.raises(NotAllowed) as refused:
        services.table_create(
            user=veteran,
            profile="georgian-club",
            options={"schedule": "nines"},
            ranked=True,
            stake=500,
        )
    assert refused.value.code == "rating_needed"


def test_a_low_stake_needs_no_rating():
    table, users = ranked_table("japanese", stake=100)
    services.seat_take(table_id=table.pk, user=users[1], number=1)
    assert Game.objects.filter(table=table).exists()


def test_no_seat_at_two_live_ranked_tables():
    table, users = ranked_table("joker-nines")
    other, _ = ranked_table("japanese")
    sitter = users[1]

    with pytest.raises(NotAllowed) as refused:
        services.seat_take(table_id=other.pk, user=sitter, number=1)
    assert refused.value.code == "ranked_elsewhere"
    with pytest.raises(NotAllowed):
        services.table_create(
            user=sitter, profile="japanese", options={"target": 21}, ranked=True
        )
    assert Seat.objects.get(table=other, number=1).user is None


def test_a_seat_at_a_playing_ranked_table_counts_too():
    game = ranked_game("japanese")
    player = game.table.seats.get(number=0).user
    other, _ = ranked_table("japanese")

    with pytest.raises(NotAllowed):
        services.seat_take(table_id=other.pk, user=player, number=1)


def test_a_casual_table_or_a_finished_ranked_game_does_not_hold_a_player():
    game = ranked_game("japanese")
    first, second = (seat.user for seat in game.table.seats.order_by("number"))
    resign(game_id=game.pk, user=second)
    casual = services.table_create(
        user=UserFactory(), profile="japanese", options={"target": 11}
    )
    services.seat_take(table_id=casual.pk, user=first, number=1)

    other, _ = ranked_table("japanese")
    services.seat_take(table_id=other.pk, user=first, number=1)

    assert Seat.objects.get(table=other, number=1).user == first


def test_leaving_a_waiting_ranked_table_frees_the_player():
    table, users = ranked_table("joker-nines")
    services.seat_leave(table_id=table.pk, user=users[1])
    other, _ = ranked_table("japanese")

    services.seat_take(table_id=other.pk, user=users[1], number=1)
