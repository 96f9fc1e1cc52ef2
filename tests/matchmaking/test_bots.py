"""Quick play's 4-player tables that start with practice bots after the wait
(docs/matchmaking.md, "Bots after the wait"), and how they are rated."""

from __future__ import annotations

import pytest

from games.models import Game, Seat
from matchmaking import grouping, selectors, services
from matchmaking.models import Match, PoolEntry
from ratings import elo
from ratings.models import RatingChange
from tests.games.helpers import play_out
from tests.matchmaking.helpers import at, player, tick_at

pytestmark = pytest.mark.django_db

WAIT = grouping.BOT_WAIT_SECONDS


def join(user, seconds=0, category="joker", stake=0, **options):
    return services.pool_join(
        user=user, category=category, stake=stake, now=at(seconds), **options
    )


def seats(match: Match) -> list[tuple]:
    return list(
        Seat.objects.filter(table=match.table)
        .order_by("number")
        .values_list("user_id", "bot")
    )


def people_and_bots(match: Match) -> tuple[set, list]:
    rows = seats(match)
    return {u for u, _ in rows if u}, sorted(b for u, b in rows if not u)


def test_a_lone_player_gets_bots_when_the_wait_is_over_and_plays_unrated():
    user = player(1500, "joker")
    join(user)
    assert tick_at(WAIT - 1, [user]) == []
    status = selectors.pool_status(user, now=at(WAIT - 8))
    assert status.bots_in == 8 and not status.bots_rated

    [match] = tick_at(WAIT, [user])

    assert people_and_bots(match) == ({user.pk}, ["practice"] * 3)
    table = match.table
    assert (table.ranked, table.rated_with_bots, table.stake, table.managed) == (
        False,
        False,
        0,
        False,
    )
    assert Game.objects.get(table=table).status == Game.Status.PLAYING
    assert not PoolEntry.objects.exists()
    assert selectors.pool_status(user).table == table.pk
    game = play_out(Game.objects.get(table=table).pk)
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.filter(game=game).exists()


def test_people_waiting_together_are_matched_together_first():
    users = [player(1500, "joker") for _ in range(4)]
    for user in users:
        join(user)
    [match] = tick_at(WAIT + 5, users)
    assert people_and_bots(match) == ({u.pk for u in users}, [])
    assert match.table.ranked


def test_the_players_who_fit_share_the_table_with_bots():
    first, close, far = player(1500, "joker"), player(1540, "joker"), player(2200)
    join(first, 0)
    join(close, 5)
    join(far, 10)
    far_entry = PoolEntry.objects.get(user=far)
    assert far_entry.rating == 1500  # unrated in joker: the start value

    matches = tick_at(WAIT, [first, close, far])

    # The far player is unrated in joker, so fits too: all three together.
    [match] = matches
    assert people_and_bots(match)[0] == {first.pk, close.pk, far.pk}
    assert len(people_and_bots(match)[1]) == 1


def test_a_rating_out_of_reach_waits_for_its_own_turn():
    first, far = player(1500, "joker"), player(1900, "joker")
    join(first, 0)
    join(far, 10)

    [match] = tick_at(WAIT, [first, far])
    assert people_and_bots(match) == ({first.pk}, ["practice"] * 3)
    assert PoolEntry.objects.filter(user=far).exists()

    [later] = tick_at(10 + WAIT, [far])
    assert people_and_bots(later) == ({far.pk}, ["strong"] * 3)


@pytest.mark.parametrize(
    ("category", "stake", "options"),
    [
        ("japanese", 0, {}),  # two players: never bots
        ("joker", 10, {}),  # a stake: never bots
        ("joker-nines", 0, {"bots": False}),  # turned down
    ],
)
def test_no_bots_for_two_players_a_stake_or_a_player_who_said_no(
    category, stake, options
):
    user = player(1500, category)
    join(user, category=category, stake=stake, **options)
    assert selectors.pool_status(user, now=at(1)).bots_in is None
    assert tick_at(WAIT * 3, [user]) == []
    assert PoolEntry.objects.filter(user=user).exists()


def test_players_who_chose_differently_are_not_seated_together_with_bots():
    rated, unrated = player(1500, "joker"), player(1500, "joker")
    join(rated, 0, bots_rated=True)
    join(unrated, 1)
    first, second = tick_at(WAIT + 1, [rated, unrated])
    assert people_and_bots(first)[0] == {rated.pk}
    assert (first.table.ranked, first.table.rated_with_bots) == (True, True)
    assert people_and_bots(second)[0] == {unrated.pk}
    assert not second.table.ranked


def test_the_ranked_option_rates_the_player_against_the_bots_fixed_ratings():
    user = player(1620, "joker", games=30)
    join(user, bots_rated=True)
    [match] = tick_at(WAIT, [user])
    level = people_and_bots(match)[1][0]
    assert level == "practice"

    game = play_out(Game.objects.get(table=match.table).pk)

    seat = Seat.objects.get(table=match.table, user=user).number
    ratings = [elo.BOT_RATINGS[level]] * 4
    ratings[seat] = 1620
    games = [0] * 4
    games[seat] = 30
    expected = elo.game_changes(ratings, games, game.result["places"])[seat]
    [change] = RatingChange.objects.filter(game=game)
    assert (change.user_id, change.before, change.delta) == (user.pk, 1620, expected)
    # K 20 against three opponents rated 1500: a first place is worth the
    # most a 1620 player can win here, a last place the most they can lose.
    assert -20 <= change.delta <= 20
    assert change.delta != 0


def test_bots_are_chosen_at_the_level_nearest_the_players():
    assert grouping.bot_level([1100, 1250]) == "easy"
    assert grouping.bot_level([1500]) == "practice"
    assert grouping.bot_level([1650]) == "practice"  # a tie goes weaker
    assert grouping.bot_level([1651]) == "strong"
    assert grouping.bot_level([2300, 2000]) == "strong"
