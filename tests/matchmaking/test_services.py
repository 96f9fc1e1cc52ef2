"""Joining, leaving and matching, through ``matchmaking.services``."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django_celery_beat.schedulers import DatabaseScheduler

from accounts.bans import user_ban
from coins import services as coins
from common.errors import ApplicationError
from config.celery import app as celery_app
from games import services as games
from games import stakes
from games.models import Game, Seat, Table
from matchmaking import selectors, services, tasks
from matchmaking.errors import AlreadyWaiting, NotWaiting
from matchmaking.models import Match, PoolEntry
from ratings.categories import category_of
from tests.factories import StaffUserFactory
from tests.games.helpers import resign
from tests.matchmaking.helpers import T0, at, join_all, player, tick_at
from tests.ranked.helpers import established, ranked_game, take_coins

pytestmark = pytest.mark.django_db


# Joining and leaving


def test_joining_puts_the_player_in_the_pool_with_their_rating():
    user = player(1620)

    entry = services.pool_join(user=user, category="japanese", stake=10, now=T0)

    assert (entry.category, entry.stake, entry.rating) == ("japanese", 10, 1620)
    assert entry.joined_at == entry.seen_at == T0


def test_an_unrated_player_joins_at_the_starting_rating():
    entry = services.pool_join(user=player(), category="joker", stake=0, now=T0)
    assert entry.rating == 1500


def test_a_second_join_is_refused_even_for_another_pool():
    user = player()
    services.pool_join(user=user, category="japanese", stake=0, now=T0)

    for category, stake in [("japanese", 0), ("joker", 10)]:
        with pytest.raises(AlreadyWaiting):
            services.pool_join(user=user, category=category, stake=stake, now=at(1))

    assert PoolEntry.objects.get(user=user).category == "japanese"


def test_the_database_refuses_one_player_in_two_pools():
    user = player()
    services.pool_join(user=user, category="japanese", stake=0, now=T0)
    with pytest.raises(IntegrityError), transaction.atomic():
        PoolEntry.objects.create(
            user=user, category="joker", stake=0, rating=1500, joined_at=T0, seen_at=T0
        )


@pytest.mark.parametrize(
    ("category", "stake"), [("chess", 0), ("japanese", 7), ("japanese", "10")]
)
def test_an_unknown_category_or_stake_is_refused(category, stake):
    with pytest.raises(ApplicationError) as refused:
        services.pool_join(user=player(), category=category, stake=stake, now=T0)
    assert refused.value.code == "bad_options"
    assert not PoolEntry.objects.exists()


def test_cancel_takes_the_player_out():
    user = player()
    services.pool_join(user=user, category="japanese", stake=0, now=T0)

    services.pool_cancel(user=user)

    assert not PoolEntry.objects.exists()
    with pytest.raises(NotWaiting):
        services.pool_cancel(user=user)
    # And they may join again.
    services.pool_join(user=user, category="joker", stake=0, now=at(5))


def test_a_player_seated_at_a_live_ranked_table_cannot_join():
    game = ranked_game("japanese")
    seated = game.table.seats.first().user

    with pytest.raises(ApplicationError) as refused:
        services.pool_join(user=seated, category="joker", stake=0, now=T0)

    assert refused.value.code == "ranked_elsewhere"
    assert not PoolEntry.objects.exists()


def test_a_player_waiting_at_an_open_ranked_table_cannot_join():
    user = player()
    games.table_create(
        user=user, profile="japanese", options={"target": 21}, ranked=True
    )

    with pytest.raises(ApplicationError) as refused:
        services.pool_join(user=user, category="japanese", stake=0, now=T0)
    assert refused.value.code == "ranked_elsewhere"


def test_a_player_who_resigned_a_ranked_game_may_join_again():
    game = ranked_game("joker")
    leaver = game.table.seats.first().user
    resign(game_id=game.pk, user=leaver)

    services.pool_join(user=leaver, category="joker", stake=0, now=T0)


def test_a_player_at_a_casual_table_may_join():
    user = player()
    games.table_create(user=user, profile="japanese", options={"target": 11})

    services.pool_join(user=user, category="japanese", stake=0, now=T0)


def test_without_the_stake_s_coins_joining_is_refused():
    user = player()
    take_coins(user, 950)  # 50 left

    with pytest.raises(ApplicationError) as refused:
        services.pool_join(user=user, category="japanese", stake=100, now=T0)
    assert refused.value.code == "few_coins"

    services.pool_join(user=user, category="japanese", stake=50, now=T0)


def test_a_high_stake_needs_an_established_rating():
    newcomer, veteran = player(), established("japanese")

    with pytest.raises(ApplicationError) as refused:
        services.pool_join(user=newcomer, category="japanese", stake=500, now=T0)
    assert refused.value.code == "rating_needed"

    services.pool_join(user=veteran, category="japanese", stake=500, now=T0)


# Matching


def test_a_tick_seats_two_close_players_at_a_ranked_table_with_their_stakes():
    a, b = player(1500), player(1550)
    join_all([a, b], stake=100)

    [match] = tick_at(1, [a, b])

    table = Table.objects.get(pk=match.table_id)
    assert table.ranked and table.stake == 100
    assert category_of(table.profile, table.options) == "japanese"
    assert table.status == Table.Status.PLAYING
    assert {s.user for s in table.seats.all()} == {a, b}
    game = Game.objects.get(table=table)
    assert game.status == Game.Status.PLAYING
    assert coins.escrow_balance(stakes.escrow_ref(game)) == 200
    assert [coins.wallet_of(u).balance for u in (a, b)] == [900, 900]
    assert set(match.players.all()) == {a, b}
    assert (match.category, match.stake, match.created_at) == ("japanese", 100, at(1))
    assert sorted(d["rating"] for d in match.detail) == [1500, 1550]
    assert not PoolEntry.objects.exists()


def test_players_1500_and_2100_are_matched_only_after_enough_waiting():
    low, high = player(1500), player(2100)
    join_all([low, high])

    for seconds in (0, 2, 20, 40, 48):
        assert tick_at(seconds, [low, high]) == []
    assert PoolEntry.objects.count() == 2

    [match] = tick_at(50, [low, high])  # both windows are 600 now
    assert set(match.players.all()) == {low, high}


def test_pools_of_other_categories_and_stakes_are_never_mixed():
    users = [player(1500) for _ in range(4)]
    services.pool_join(user=users[0], category="japanese", stake=0, now=T0)
    services.pool_join(user=users[1], category="japanese", stake=10, now=T0)
    # Without bots after the wait, which would seat the lone players.
    services.pool_join(user=users[2], category="joker", stake=0, bots=False, now=T0)
    services.pool_join(
        user=users[3], category="joker-nines", stake=0, bots=False, now=T0
    )

    assert tick_at(100, users) == []
    assert PoolEntry.objects.count() == 4


def test_four_players_of_joker_nines_are_seated_and_their_stakes_escrowed():
    users = [player(1500 + 20 * n, "joker-nines") for n in range(5)]
    join_all(users, "joker-nines", stake=50)

    [match] = tick_at(1, users)

    seated = {s.user for s in match.table.seats.all()}
    assert seated == set(users[:4])  # the four who came first
    game = Game.objects.get(table=match.table)
    assert match.table.options["schedule"] == "nines"
    assert coins.escrow_balance(stakes.escrow_ref(game)) == 200
    assert list(PoolEntry.objects.values_list("user", flat=True)) == [users[4].pk]


def test_a_player_is_never_matched_with_themselves():
    # One entry per user: a lone player, however long they wait, stays alone.
    user = player()
    services.pool_join(user=user, category="japanese", stake=0, now=T0)
    with pytest.raises(AlreadyWaiting):
        services.pool_join(user=user, category="japanese", stake=0, now=T0)

    assert tick_at(500, [user]) == []
    assert PoolEntry.objects.filter(user=user).exists()
    assert not Table.objects.exists()


def test_a_matched_player_is_seated_once_and_may_not_queue_again_while_playing():
    a, b, c = player(), player(), player()
    join_all([a, b])
    tick_at(1, [a, b])

    with pytest.raises(ApplicationError) as refused:
        services.pool_join(user=a, category="japanese", stake=0, now=at(2))
    assert refused.value.code == "ranked_elsewhere"
    services.pool_join(user=c, category="japanese", stake=0, now=at(2))
    assert tick_at(3, [c]) == []
    assert Seat.objects.filter(user=a).count() == 1


def test_the_seats_are_shuffled():
    orders = set()
    for _ in range(30):
        a, b = player(), player()
        join_all([a, b])
        [match] = tick_at(1, [a, b])
        orders.add(match.table.seats.get(number=0).user == a)
        if len(orders) == 2:
            break
    assert orders == {True, False}


def test_players_not_heard_from_leave_the_pool():
    present, gone = player(), player()
    join_all([present, gone])
    services.pool_cancel(user=present)
    services.pool_join(user=present, category="joker", stake=0, bots=False, now=T0)

    tick_at(services.AWAY_SECONDS, [present])  # just within
    assert PoolEntry.objects.count() == 2
    tick_at(services.AWAY_SECONDS + 1, [present])

    assert list(PoolEntry.objects.values_list("user", flat=True)) == [present.pk]


def test_a_player_who_sat_down_elsewhere_is_dropped_and_the_others_wait_on():
    a, b, c = player(), player(), player()
    join_all([a, b, c], stake=10)
    # a sits down at a ranked table in the lobby while waiting.
    ranked_game("joker", users=[a, player(), player(), player()])

    assert tick_at(1, [a, b, c]) == []
    assert set(PoolEntry.objects.values_list("user", flat=True)) == {b.pk, c.pk}

    [match] = tick_at(2, [b, c])
    assert set(match.players.all()) == {b, c}


def test_a_player_who_spent_their_coins_is_dropped():
    a, b = player(), player()
    join_all([a, b], stake=100)
    take_coins(a, 950)

    assert tick_at(1, [a, b]) == []
    assert list(PoolEntry.objects.values_list("user", flat=True)) == [b.pk]
    assert not Table.objects.exists()


def test_the_celery_task_runs_one_tick():
    a, b = player(), player()
    services.pool_join(user=a, category="japanese", stake=0)
    services.pool_join(user=b, category="japanese", stake=0)

    assert tasks.tick() == 1
    assert tasks.tick() == 0
    assert Match.objects.count() == 1


# Status


def test_the_status_of_a_waiting_player():
    a, b = player(1600, "joker"), player(1800, "joker")
    join_all([a, b], "joker", stake=10)

    status = selectors.pool_status(a, now=at(12.7))

    assert status.waiting
    assert (status.category, status.stake, status.rating) == ("joker", 10, 1600)
    assert (status.waited, status.window, status.players) == (12, 227, 2)
    assert status.joined_at == T0


def test_the_status_after_a_match_points_to_the_table():
    a, b = player(), player()
    assert selectors.pool_status(a) == selectors.PoolStatus(waiting=False)
    join_all([a, b])
    [match] = tick_at(1, [a, b])

    status = selectors.pool_status(a)

    assert not status.waiting
    assert status.table == match.table_id
    assert status.url == f"/tables/{match.table_id}/"


def test_the_pools_overview():
    users = [player() for _ in range(3)]
    join_all(users[:2], "joker", stake=50)
    join_all(users[2:], "japanese", stake=0, seconds=30)

    pools = {(p.category, p.stake): p for p in selectors.pools(now=at(40))}

    assert len(pools) == 4 * 6
    assert (pools["joker", 50].players, pools["joker", 50].oldest_wait) == (2, 40)
    assert (pools["japanese", 0].players, pools["japanese", 0].oldest_wait) == (1, 10)
    assert (pools["joker", 0].players, pools["joker", 0].oldest_wait) == (0, None)


def test_a_banned_player_in_the_pool_is_dropped_and_the_other_waits_on():
    banned, other = player(), player()
    join_all([banned, other])
    user_ban(user=banned, by=StaffUserFactory(), reason="cheating")

    assert tick_at(1, [banned, other]) == []
    assert list(PoolEntry.objects.values_list("user", flat=True)) == [other.pk]
    assert not Table.objects.exists()


# Beat's database scheduler closes the connection: no test transaction.
@pytest.mark.django_db(transaction=True)
def test_beat_schedules_the_tick_every_two_seconds_and_drops_stale_ones():
    scheduler = DatabaseScheduler(app=celery_app, lazy=True)
    scheduler.setup_schedule()  # what celery beat does on start

    entry = scheduler.schedule["matchmaking-tick"]

    assert entry.task == "matchmaking.tasks.tick" == tasks.tick.name
    assert entry.schedule.run_every.total_seconds() == 2
    assert entry.options["expires"] == 2
