"""Rematch through its services: agreement, the new table, every refusal,
expiry, and two last clicks at the same moment on real transactions."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from accounts.bans import user_ban
from games import selectors, services
from games.models import Game, Rematch, Seat, Table
from games.services.rematch import (
    REMATCH_SECONDS,
    AlreadyAgreed,
    GameNotFinished,
    NoOffer,
    NotAPlayer,
    RematchMade,
    RematchRefused,
    TournamentGame,
    rematch_agree,
    rematch_decline,
    rematch_left,
)
from tests.factories import StaffUserFactory, UserFactory
from tests.games.helpers import resign, start_table
from tests.ranked.helpers import finish, ranked_game, take_coins, users_by_seat

pytestmark = pytest.mark.django_db


def resigned(game: Game, user) -> Game:
    """The game ended by ``user`` resigning (Japanese Joker: the other wins)."""
    resign(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def japanese_over(**kwargs) -> tuple[Game, list]:
    table, users = start_table("japanese", {"target": 11}, people=2, **kwargs)
    game = Game.objects.get(table=table)
    return resigned(game, users[1]), users


def seats_of(table: Table) -> list[tuple]:
    return list(
        Seat.objects.filter(table=table)
        .order_by("number")
        .values_list("number", "user_id", "bot", "left")
    )


def test_when_every_player_agrees_a_new_table_starts_with_the_same_seats():
    game, (first, second) = japanese_over(turn_seconds=45, is_private=True)
    now = timezone.now()

    offer = rematch_agree(game_id=game.pk, user=second, now=now)
    assert (offer.state, offer.agreed, offer.table) == ("open", [1], None)
    assert offer.expires_at == now + timedelta(seconds=REMATCH_SECONDS)
    message = selectors.rematch_message(game.pk, now=now)
    assert (message["state"], message["agreed"], message["waiting"]) == (
        "open",
        [1],
        [0],
    )

    made = rematch_agree(game_id=game.pk, user=first, now=now + timedelta(seconds=5))
    assert made.state == "made"
    old, new = game.table, made.table
    assert new.pk != old.pk and new.status == Table.Status.PLAYING
    for field in ("profile", "options", "turn_seconds", "is_private", "ranked"):
        assert getattr(new, field) == getattr(old, field), field
    assert new.invite_code != old.invite_code
    assert seats_of(new) == [(0, first.pk, "", False), (1, second.pk, "", False)]
    assert Game.objects.get(table=new).status == Game.Status.PLAYING
    message = selectors.rematch_message(game.pk)
    assert (message["state"], message["table"]) == ("made", new.pk)
    assert message["url"] == f"/tables/{new.pk}/"


def test_bots_agree_at_once_and_keep_their_seats_and_levels():
    people = [UserFactory(), UserFactory()]
    table = services.table_create(user=people[0], profile="georgian-club")
    services.seat_take(table_id=table.pk, user=people[1], number=2)
    services.seat_add_bot(table_id=table.pk, user=people[0], number=1, bot="easy")
    services.seat_add_bot(table_id=table.pk, user=people[0], number=3, bot="strong")
    game = Game.objects.get(table=table)
    resign(game_id=game.pk, user=people[1])
    # The rest is played out by the bots and the other person's timeouts.
    game = finish(game)

    rematch_agree(game_id=game.pk, user=people[0])
    made = rematch_agree(game_id=game.pk, user=people[1])

    assert made.state == "made"
    assert seats_of(made.table) == [
        (0, people[0].pk, "", False),
        (1, None, "easy", False),
        (2, people[1].pk, "", False),
        (3, None, "strong", False),
    ]


def test_a_ranked_staked_game_is_played_again_with_its_stake():
    game = ranked_game("japanese", stake=10)
    users = users_by_seat(game)
    game = resigned(game, users[0])

    rematch_agree(game_id=game.pk, user=users[0])
    made = rematch_agree(game_id=game.pk, user=users[1])

    new = made.table
    assert (new.ranked, new.stake, new.settlement) == (True, 10, "pot")
    assert Game.objects.get(table=new).status == Game.Status.PLAYING


def nothing_changed(game: Game, tables: int, rematch: tuple | None = None):
    assert Table.objects.count() == tables
    row = Rematch.objects.filter(game=game).values_list("state", "agreed").first()
    assert row == rematch


def test_refusals_change_nothing():
    table, (first, second) = start_table("japanese", {"target": 11}, people=2)
    playing = Game.objects.get(table=table)
    with pytest.raises(GameNotFinished) as error:
        rematch_agree(game_id=playing.pk, user=first)
    assert error.value.code == "game_not_finished"
    nothing_changed(playing, 1)

    game, (first, second) = japanese_over()
    with pytest.raises(NotAPlayer) as error:
        rematch_agree(game_id=game.pk, user=UserFactory())
    assert error.value.code == "not_a_player"
    with pytest.raises(NoOffer) as error:
        rematch_decline(game_id=game.pk, user=first)
    assert error.value.code == "no_offer"
    nothing_changed(game, 2)

    rematch_agree(game_id=game.pk, user=first)
    with pytest.raises(AlreadyAgreed) as error:
        rematch_agree(game_id=game.pk, user=first)
    assert error.value.code == "rematch_agreed"
    nothing_changed(game, 2, ("open", [0]))

    rematch_agree(game_id=game.pk, user=second)
    for user in (first, second):
        with pytest.raises(RematchMade) as error:
            rematch_agree(game_id=game.pk, user=user)
        assert error.value.code == "rematch_made"
    nothing_changed(game, 3, ("made", [0, 1]))


def test_a_tournament_game_is_not_played_again():
    users = [UserFactory(), UserFactory()]
    table = services.table_create_seated(
        profile="japanese",
        options={"target": 11},
        turn_seconds=30,
        players=users,
        created_by=users[0],
    )
    game = resigned(Game.objects.get(table=table), users[0])
    with pytest.raises(TournamentGame) as error:
        rematch_agree(game_id=game.pk, user=users[1])
    assert error.value.code == "tournament_game"
    nothing_changed(game, 1)


def last_click_refused(game: Game, users: list, seat: int, reason: str):
    tables = Table.objects.count()
    rematch_agree(game_id=game.pk, user=users[1 - seat])
    with pytest.raises(RematchRefused) as error:
        rematch_agree(game_id=game.pk, user=users[seat])
    assert (error.value.code, error.value.reason, error.value.seat) == (
        "rematch_refused",
        reason,
        seat,
    )
    # Nothing half-made: no table, seat or game; the offer lapsed, saying why.
    assert Table.objects.count() == tables
    message = selectors.rematch_message(game.pk)
    assert (message["state"], message["reason"], message["seat"]) == (
        "lapsed",
        reason,
        seat,
    )


def test_a_player_short_of_the_stake_refuses_the_rematch():
    game = ranked_game("japanese", stake=10)
    users = users_by_seat(game)
    game = resigned(game, users[0])
    take_coins(users[0], 985)  # lost 10 at the game: 5 left of 990
    last_click_refused(game, users, 0, "few_coins")


def test_a_player_seated_at_another_ranked_table_refuses_the_rematch():
    game = ranked_game("japanese")
    users = users_by_seat(game)
    game = resigned(game, users[0])
    ranked_game("japanese", users=[users[1], UserFactory()])
    last_click_refused(game, users, 1, "ranked_elsewhere")


def test_a_player_banned_after_agreeing_refuses_the_rematch():
    game, users = japanese_over()
    rematch_agree(game_id=game.pk, user=users[1])
    user_ban(user=users[1], by=StaffUserFactory(), reason="cheating")
    tables = Table.objects.count()
    with pytest.raises(RematchRefused) as error:
        rematch_agree(game_id=game.pk, user=users[0])
    assert (error.value.reason, error.value.seat) == ("banned", 1)
    assert Table.objects.count() == tables


def test_an_offer_lapses_with_its_time_and_can_be_made_again():
    game, (first, second) = japanese_over()
    now = timezone.now()
    rematch_agree(game_id=game.pk, user=first, now=now)
    later = now + timedelta(seconds=REMATCH_SECONDS)
    message = selectors.rematch_message(game.pk, now=later)
    assert (message["state"], message["reason"]) == ("lapsed", "expired")

    again = rematch_agree(game_id=game.pk, user=second, now=later)
    # A new offer: the first player's old agreement counts no more.
    assert (again.state, again.agreed) == ("open", [1])


def test_declining_or_leaving_lapses_the_offer():
    game, (first, second) = japanese_over()
    rematch_agree(game_id=game.pk, user=first)
    declined = rematch_decline(game_id=game.pk, user=second)
    assert (declined.state, declined.reason, declined.reason_seat) == (
        "lapsed",
        "declined",
        1,
    )
    with pytest.raises(NoOffer):
        rematch_decline(game_id=game.pk, user=second)

    rematch_agree(game_id=game.pk, user=second)
    assert rematch_left(game_id=game.pk, user=first)
    assert Rematch.objects.get(game=game).reason == "left"
    assert not rematch_left(game_id=game.pk, user=first)


def three_people_over() -> tuple[Game, list]:
    table, users = start_table("georgian-club", {"schedule": "nines"}, people=3)
    game = Game.objects.get(table=table)
    resign(game_id=game.pk, user=users[0])
    return finish(game), users


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_the_last_two_clicks_at_the_same_moment_make_one_table():
    for _ in range(4):
        game, users = three_people_over()
        rematch_agree(game_id=game.pk, user=users[0])
        tables = Table.objects.count()
        barrier = threading.Barrier(2)
        errors: list = []

        def click(user, game_id=game.pk, barrier=barrier, errors=errors):
            try:
                barrier.wait(timeout=10)
                rematch_agree(game_id=game_id, user=user)
            except Exception as error:  # reported below
                errors.append(error)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=click, args=(user,)) for user in users[1:]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)

        assert errors == []
        assert Table.objects.count() == tables + 1
        rematch = Rematch.objects.get(game=game)
        assert (rematch.state, rematch.agreed) == ("made", [0, 1, 2])
