"""Annulling games: ratings and Domino Coin as if they were never played."""

from __future__ import annotations

import pytest

from coins import services as coins
from coins.models import Entry
from common.errors import NotAllowed, NotFound
from games import services, stakes
from games.models import Game, GameEvent, Table
from games.services.annul import game_annul
from ratings.models import Rating, RatingChange
from tests.factories import StaffUserFactory
from tests.games.helpers import abort, advance_overdue
from tests.ranked.helpers import (
    balance,
    balances,
    established,
    finish,
    ranked_game,
    ratings_of,
    take_coins,
    time_out,
    users_by_seat,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator():
    return StaffUserFactory()


def books_balance() -> bool:
    return coins.ledger_total() == 0 and coins.ledger_mismatches() == []


def test_annulling_a_finished_game_restores_every_balance_and_rating(operator):
    players = [established("japanese", rating=1650), established("japanese")]
    before_coins = balances(players)
    before_ratings = ratings_of(players, "japanese")
    game = finish(ranked_game("japanese", stake=100, users=players))
    assert balances(players) != before_coins
    assert ratings_of(players, "japanese") != before_ratings

    assert game_annul(game_id=game.pk, by=operator) is True

    game.refresh_from_db()
    assert game.status == Game.Status.ANNULLED
    assert (game.annulled_by, game.annulled_at is not None) == (operator, True)
    assert balances(players) == before_coins
    assert ratings_of(players, "japanese") == before_ratings
    assert not RatingChange.objects.filter(game=game).exists()
    assert coins.escrow_balance(stakes.escrow_ref(game)) == 0
    assert books_balance()


def test_the_undoing_is_in_the_ledger_with_the_operator(operator):
    game = finish(ranked_game("japanese", stake=50))
    (winner,) = game.result["winners"]
    winner = users_by_seat(game)[winner]

    game_annul(game_id=game.pk, by=operator)

    annulled = Entry.objects.filter(ref=f"game:{game.pk}", reason=Entry.Reason.ANNUL)
    taken_back = annulled.get(idempotency_key=f"annul:game:{game.pk}:{winner.pk}")
    assert (taken_back.amount, taken_back.debit.owner) == (100, winner)
    assert taken_back.created_by == operator
    refunds = annulled.filter(idempotency_key__startswith=f"annul:game:{game.pk}:ref")
    assert sorted(refunds.values_list("amount", flat=True)) == [50, 50]


def test_new_players_are_unrated_again(operator):
    game = finish(ranked_game("joker-nines", stake=10))
    users = users_by_seat(game)
    assert Rating.objects.filter(user__in=users).count() == 4

    game_annul(game_id=game.pk, by=operator)

    assert not Rating.objects.filter(user__in=users).exists()
    assert balances(users) == [coins.welcome_coins()] * 4
    assert books_balance()


def test_a_later_game_keeps_its_rating_change(operator):
    players = [established("japanese"), established("japanese")]
    first = finish(ranked_game("japanese", users=players))
    second = finish(ranked_game("japanese", users=players))
    later = dict(
        RatingChange.objects.filter(game=second).values_list("user_id", "delta")
    )

    game_annul(game_id=first.pk, by=operator)

    for user in players:
        rating = Rating.objects.get(user=user, category="japanese")
        assert rating.rating == 1600 + later[user.pk]
        assert rating.games == 31


def test_annulling_a_game_in_progress_ends_it_and_refunds_every_stake(operator):
    game = ranked_game("joker-nines", stake=100)
    users = users_by_seat(game)
    for _ in range(10):
        time_out(game)
    game.refresh_from_db()
    version = game.version

    assert game_annul(game_id=game.pk, by=operator) is True

    game.refresh_from_db()
    assert game.status == Game.Status.ANNULLED
    assert (game.version, game.deadline) == (version + 1, None)
    assert game.events.last().kind == GameEvent.Kind.ABORT
    assert game.table.status == Table.Status.ABORTED
    assert balances(users) == [coins.welcome_coins()] * 4
    assert not RatingChange.objects.filter(game=game).exists()
    # The timer of the move that was due finds the game over.
    assert not advance_overdue(game_id=game.pk, version=version, now=None)
    assert books_balance()


def test_a_second_annulment_does_nothing(operator):
    game = finish(ranked_game("japanese", stake=10))
    game_annul(game_id=game.pk, by=operator)
    entries = Entry.objects.count()
    users = users_by_seat(game)
    after = balances(users)

    assert game_annul(game_id=game.pk, by=operator) is False

    assert Entry.objects.count() == entries
    assert balances(users) == after


def test_a_late_settlement_of_an_annulled_game_does_nothing(operator):
    game = finish(ranked_game("japanese", stake=50))
    users = users_by_seat(game)
    game_annul(game_id=game.pk, by=operator)
    entries = Entry.objects.count()

    stakes.settle(Game.objects.select_related("table").get(pk=game.pk))

    assert Entry.objects.count() == entries
    assert balances(users) == [coins.welcome_coins()] * 2
    assert not RatingChange.objects.filter(game=game).exists()


def test_a_winner_who_spent_the_coins_stops_the_annulment(operator):
    game = finish(ranked_game("japanese", stake=100))
    users = users_by_seat(game)
    (seat,) = game.result["winners"]
    winner = users[seat]
    take_coins(winner, balance(winner) - 99)
    coins_before = balances(users)
    ratings_before = ratings_of(users, "japanese")
    entries = Entry.objects.count()

    with pytest.raises(NotAllowed) as refused:
        game_annul(game_id=game.pk, by=operator)

    assert refused.value.code == "coins_spent"
    assert winner.username in str(refused.value)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert balances(users) == coins_before
    assert ratings_of(users, "japanese") == ratings_before
    assert Entry.objects.count() == entries
    assert books_balance()


def test_an_aborted_game_has_nothing_to_annul(operator):
    game = ranked_game("japanese", stake=10)
    abort(game_id=game.pk, user=users_by_seat(game)[0])

    with pytest.raises(NotAllowed):
        game_annul(game_id=game.pk, by=operator)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_a_casual_game_can_be_annulled(operator):
    table = services.table_create(
        user=established("japanese"), profile="japanese", options={"target": 11}
    )
    services.seat_take(table_id=table.pk, user=established("japanese"), number=1)
    game = finish(Game.objects.get(table=table))

    assert game_annul(game_id=game.pk, by=operator)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ANNULLED


def test_no_such_game(operator):
    with pytest.raises(NotFound):
        game_annul(game_id=999, by=operator)
