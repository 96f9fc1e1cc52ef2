"""Domino Coin stakes: escrow at the start, one settlement at the end."""

from __future__ import annotations

import pytest
from django.utils import timezone

from coins import services as coins
from coins.models import Entry
from games import services, stakes
from games.live.local import owner_of
from games.models import Game, Table
from ratings.models import Rating, RatingChange
from tests.games.helpers import abort, resign
from tests.ranked.helpers import (
    balances,
    finish,
    ranked_game,
    ranked_table,
    ratings_of,
    time_out,
    users_by_seat,
)

pytestmark = pytest.mark.django_db

WELCOME = 1000


def escrow_of(game: Game) -> int:
    return coins.escrow_balance(stakes.escrow_ref(game))


def assert_books_balance() -> None:
    assert coins.ledger_total() == 0
    assert coins.ledger_mismatches() == []


# Escrow


@pytest.mark.parametrize(("category", "stake"), [("japanese", 50), ("joker", 100)])
def test_the_escrow_holds_every_stake_once_the_game_starts(category, stake):
    table, users = ranked_table(category, stake=stake)
    assert balances(users) == [WELCOME] * len(users)
    assert escrow_of_table(table) == 0

    services.seat_take(table_id=table.pk, user=users[-1], number=len(users) - 1)
    game = Game.objects.get(table=table)

    assert escrow_of(game) == stake * len(users)
    assert balances(users) == [WELCOME - stake] * len(users)
    assert_books_balance()


def escrow_of_table(table: Table) -> int:
    game = Game.objects.filter(table=table).first()
    return 0 if game is None else escrow_of(game)


def test_a_ranked_table_without_stake_moves_no_coins():
    game = ranked_game("japanese")
    users = users_by_seat(game)
    assert escrow_of(game) == 0
    assert balances(users) == [WELCOME, WELCOME]
    finish(game)
    assert balances(users) == [WELCOME, WELCOME]
    assert RatingChange.objects.filter(game=game).count() == 2


# Settlement


def test_a_finished_japanese_game_pays_the_pot_to_the_winner_and_rates_both():
    game = finish(ranked_game("japanese", stake=100))
    users = users_by_seat(game)

    assert game.status == Game.Status.FINISHED
    (winner,) = game.result["winners"]
    loser = 1 - winner
    assert balances(users)[winner] == WELCOME + 100
    assert balances(users)[loser] == WELCOME - 100
    assert escrow_of(game) == 0
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert changes[users[winner].pk].delta > 0 > changes[users[loser].pk].delta
    assert changes[users[winner].pk].delta == -changes[users[loser].pk].delta
    for user in users:
        rating = Rating.objects.get(user=user, category="japanese")
        assert (rating.rating, rating.games) == (changes[user.pk].after, 1)
    assert_books_balance()


def test_a_finished_four_player_game_pays_its_winners_and_rates_everybody():
    game = finish(ranked_game("joker-nines", stake=10))
    users = users_by_seat(game)

    winners = game.result["winners"]
    shares = stakes.split_pot(40, [users[seat].pk for seat in winners])
    expected = [WELCOME - 10 + shares.get(user.pk, 0) for user in users]
    assert balances(users) == expected
    assert escrow_of(game) == 0
    assert RatingChange.objects.filter(game=game).count() == 4
    assert_books_balance()


def test_the_pot_splits_evenly_and_the_remainder_goes_in_seat_order():
    assert stakes.split_pot(100, [7, 3, 5]) == {7: 34, 3: 33, 5: 33}
    assert stakes.split_pot(101, [7, 3, 5]) == {7: 34, 3: 34, 5: 33}
    assert stakes.split_pot(99, [7, 3, 5]) == {7: 33, 3: 33, 5: 33}
    assert stakes.split_pot(40, [2, 1]) == {2: 20, 1: 20}
    assert stakes.split_pot(40, [9]) == {9: 40}


def test_a_shared_first_place_splits_the_pot():
    """Three players share first place: the pot of 4 x 50 = 200 is paid
    67/67/66 in seat order. (A shared first place is rare with real deals,
    so the game's end is written by hand; settlement reads only the result.)"""
    game = ranked_game("joker-nines", stake=50)
    users = users_by_seat(game)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        result={
            "totals": [900, 500, 900, 900],
            "places": [1, 4, 1, 1],
            "winners": [0, 2, 3],
            "left": [],
        },
    )
    game.refresh_from_db()

    stakes.settle(game)

    assert balances(users) == [
        WELCOME - 50 + 67,
        WELCOME - 50,
        WELCOME - 50 + 67,
        WELCOME - 50 + 66,
    ]
    assert escrow_of(game) == 0
    assert_books_balance()


def test_settling_again_pays_once_and_rates_once():
    game = finish(ranked_game("japanese", stake=50))
    users = users_by_seat(game)
    after = balances(users)
    rated = ratings_of(users, "japanese")
    entries = Entry.objects.count()
    changes = list(RatingChange.objects.filter(game=game).values_list("pk", "delta"))

    stakes.settle(game)
    stakes.settle(Game.objects.get(pk=game.pk))

    assert balances(users) == after
    assert ratings_of(users, "japanese") == rated
    assert Entry.objects.count() == entries
    assert list(RatingChange.objects.filter(game=game).values_list("pk", "delta")) == (
        changes
    )


# Forfeits and aborts


def test_resigning_loses_the_stake():
    game = ranked_game("japanese", stake=100)
    users = users_by_seat(game)
    time_out(game)

    resign(game_id=game.pk, user=users[0])

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"] == [1]
    assert balances(users) == [WELCOME - 100, WELCOME + 100]
    deltas = dict(RatingChange.objects.filter(game=game).values_list("user", "delta"))
    assert deltas[users[0].pk] < 0 < deltas[users[1].pk]


def test_staying_away_past_the_grace_period_loses_the_stake():
    game = ranked_game("japanese", stake=50)
    users = users_by_seat(game)
    # The step the game's owner makes when the grace runs out.
    with owner_of(game.pk) as table:
        table.make(
            lambda live: live.decide_resign(1, cause="disconnect", now=timezone.now())
        )

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"] == [0]
    assert balances(users) == [WELCOME + 50, WELCOME - 50]
    assert escrow_of(game) == 0


def test_a_four_player_leaver_is_placed_last_and_cannot_win_the_pot():
    game = ranked_game("joker-nines", stake=10)
    users = users_by_seat(game)
    resign(game_id=game.pk, user=users[2])
    game = finish(game)

    assert game.result["places"][2] == 4 and 2 not in game.result["winners"]
    assert balances(users)[2] == WELCOME - 10
    assert sum(balances(users)) == 4 * WELCOME
    assert_books_balance()


def test_an_abort_refunds_everyone_exactly():
    game = ranked_game("joker-nines", stake=100)
    users = users_by_seat(game)
    assert balances(users) == [WELCOME - 100] * 4

    abort(game_id=game.pk, user=users[1])

    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert balances(users) == [WELCOME] * 4
    assert escrow_of(game) == 0
    assert not RatingChange.objects.filter(game=game).exists()
    refunds = Entry.objects.filter(reason=Entry.Reason.REFUND, ref=f"game:{game.pk}")
    assert sorted(refunds.values_list("amount", flat=True)) == [100] * 4
    assert_books_balance()


def test_after_an_abort_the_players_may_sit_at_another_ranked_table():
    game = ranked_game("japanese", stake=10)
    users = users_by_seat(game)
    abort(game_id=game.pk, user=users[0])
    table, _ = ranked_table("japanese", stake=10)

    services.seat_take(table_id=table.pk, user=users[0], number=1)
