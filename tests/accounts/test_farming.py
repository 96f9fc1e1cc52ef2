"""Farming: puppets made on the sign-up page to lose to one account, for its
coins and its rating (docs/security.md, "Farming").

The accounts are made the way an abuser makes them, through the sign-up
page from one address; their games go through the games services.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import SharedAddress
from coins import services as coins
from common.errors import NotAllowed
from demo.games import person_move
from games import services
from games.live.local import Due, owner_of
from games.models import Game, GameEvent
from games.views.lobby import SEAT_REFUSALS
from ratings.categories import preset
from ratings.elo import PROVISIONAL_GAMES
from ratings.models import Rating, RatingChange, UnratedReason
from ratings.selectors import leaderboard, player_rank
from ratings.services import rating_counts_rebuild
from tests.factories import StaffUserFactory, UserFactory
from tests.games.helpers import play_out, play_until, resign

pytestmark = pytest.mark.django_db

PASSWORD = "queen-of-spades-77"
HOME = "203.0.113.7"
ELSEWHERE = "198.51.100.20"


def signed_up(username: str, address: str = HOME):
    """An account made on the sign-up page from ``address``; returns the
    user and the signed-in client."""
    client = Client(REMOTE_ADDR=address)
    answer = client.post(
        "/accounts/signup/",
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert answer.status_code == 302, answer.content
    return get_user_model().objects.get(username=username), client


def japanese_table(creator, *, stake: int = 0):
    profile, options = preset("japanese")
    return services.table_create(
        user=creator, profile=profile, options=options, ranked=True, stake=stake
    )


def make_established(user, category: str = "japanese") -> None:
    Rating.objects.create(
        user=user, category=category, rating=1500, games=PROVISIONAL_GAMES, peak=1500
    )
    rating_counts_rebuild()


def errors_of(answer) -> list[str]:
    return [str(m) for m in get_messages(answer.wsgi_request) if m.level_tag == "error"]


# Stakes


def test_a_new_account_stakes_nothing_before_its_rating_is_established():
    puppet, client = signed_up("puppet")
    table = japanese_table(UserFactory(), stake=10)

    answer = client.post(f"/tables/{table.pk}/seats/1/take/")

    assert errors_of(answer) == [
        str(SEAT_REFUSALS["rating_needed"]) % {"stake": 10, "games": PROVISIONAL_GAMES}
    ]
    assert not table.seats.filter(user=puppet).exists()
    assert coins.wallet_of(puppet).balance == 1000


def test_a_new_account_cannot_open_a_staked_table_or_join_a_staked_pool():
    puppet, _ = signed_up("puppet")
    api = APIClient()
    api.force_authenticate(puppet)

    refused = api.post(
        "/api/v1/pools/join/", {"category": "japanese", "stake": 10}, format="json"
    )

    assert refused.status_code == 409
    assert refused.json()["code"] == "rating_needed"
    with pytest.raises(NotAllowed) as opening:
        japanese_table(puppet, stake=10)
    assert opening.value.code == "rating_needed"
    # Unstaked ranked play is open to it, which is how it gets established.
    free = api.post(
        "/api/v1/pools/join/", {"category": "japanese", "stake": 0}, format="json"
    )
    assert free.status_code == 201


def test_an_established_new_account_stakes_and_an_operators_account_always_did():
    player, client = signed_up("player")
    make_established(player)
    table = japanese_table(UserFactory(), stake=10)

    answer = client.post(f"/tables/{table.pk}/seats/1/take/")

    assert answer["Location"] == f"/tables/{table.pk}/"
    assert Game.objects.filter(table=table).exists()
    # The rating must be the table's category's.
    other, other_client = signed_up("other")
    make_established(other, "joker")
    table = japanese_table(UserFactory(), stake=10)
    other_client.post(f"/tables/{table.pk}/seats/1/take/")
    assert not table.seats.filter(user=other).exists()


# Games between accounts seen at one address


def japanese_game(first, second, *, stake: int = 0) -> Game:
    table = japanese_table(first, stake=stake)
    services.seat_take(table_id=table.pk, user=second, number=1)
    return Game.objects.get(table=table)


def test_a_ranked_game_between_accounts_signed_up_at_one_address_is_listed():
    main, _ = signed_up("main")
    puppet, _ = signed_up("puppet")
    stranger, _ = signed_up("stranger", ELSEWHERE)

    shared = japanese_game(main, puppet)
    japanese_game(UserFactory(), stranger)

    flags = list(SharedAddress.objects.all())
    assert [(f.game_id, f.same_signup_address) for f in flags] == [(shared.pk, True)]
    assert {flags[0].player, flags[0].other} == {main, puppet}


def test_a_login_from_another_accounts_address_is_noticed_too():
    main, _ = signed_up("main")
    puppet, _ = signed_up("puppet", ELSEWHERE)
    # The puppet, made elsewhere, is played from the main account's address.
    Client(REMOTE_ADDR=HOME).post(
        "/accounts/login/", {"username": "puppet", "password": PASSWORD}
    )

    game = japanese_game(main, puppet)

    flag = SharedAddress.objects.get(game=game)
    assert (flag.same_signup_address, flag.same_login_address) == (False, True)


def test_a_casual_game_is_not_listed():
    main, _ = signed_up("main")
    puppet, _ = signed_up("puppet")
    table = services.table_create(user=main, profile="japanese", options={"target": 11})
    services.seat_take(table_id=table.pk, user=puppet, number=1)

    assert not SharedAddress.objects.exists()


def test_puppets_resigning_to_one_account_give_it_no_rating():
    """The attack: three puppets from the main account's address resign to
    it, one game each. None of the games is rated."""
    main, _ = signed_up("main")
    honest, _ = signed_up("honest", ELSEWHERE)
    rival, _ = signed_up("rival", "192.0.2.1")
    make_established(rival)
    # Someone is above the main account, so that a rank can be lifted.
    resign(game_id=japanese_game(honest, rival).pk, user=rival)
    assert player_rank(user_id=honest.pk, category="japanese") == 1

    for n in range(3):
        puppet, _ = signed_up(f"puppet{n}")
        game = japanese_game(main, puppet)
        resign(game_id=game.pk, user=puppet)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert not RatingChange.objects.filter(game=game).exists()
        assert game.unrated.reason == UnratedReason.SHARED_ADDRESS

    assert not Rating.objects.filter(user=main).exists()
    assert player_rank(user_id=main.pk, category="japanese") is None
    assert SharedAddress.objects.count() == 3


# New accounts that leave


def leave_when(game: Game, user, moment: str) -> None:
    """``user`` resigns ``game`` at ``moment``: at once, once the first trick
    is taken, or once the first deal is scored."""
    if moment == "after-a-trick":
        play_until(game, lambda g: len(g.engine_state().trick_winners) >= 1)
    elif moment == "after-a-deal":
        play_until(game, lambda g: len(g.engine_state().deals) >= 1)
    resign(game_id=game.pk, user=user)


@pytest.mark.parametrize("moment", ["at-once", "after-a-trick", "after-a-deal"])
def test_puppets_from_three_addresses_give_the_main_account_no_rating(moment):
    """The attack that got through the address rules: three fresh accounts
    from three addresses each lose a ranked stake-0 game to the main account
    by leaving it, early or after a trick or a deal. The main account gains
    nothing and stays off the top, while a game between established players
    is rated as before."""
    leader, _ = signed_up("leader", "192.0.2.50")
    runner_up, _ = signed_up("runnerup", "192.0.2.51")
    make_established(leader)
    make_established(runner_up)
    honest = japanese_game(leader, runner_up)
    resign(game_id=honest.pk, user=runner_up)
    assert [c.delta for c in RatingChange.objects.filter(game=honest)] == [10, -10]
    main, _ = signed_up("main")

    for n, address in enumerate(("198.51.100.1", "198.51.100.2", "198.51.100.3")):
        puppet, _ = signed_up(f"puppet{n}", address)
        game = japanese_game(main, puppet)
        leave_when(game, puppet, moment)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert not RatingChange.objects.filter(game=game).exists()
        assert game.unrated.reason == UnratedReason.PROVISIONAL_LEFT

    assert not SharedAddress.objects.exists()
    assert not Rating.objects.filter(user=main).exists()
    top = leaderboard("japanese", limit=1)
    assert [standing.user_id for standing in top] == [leader.pk]


def test_an_established_account_that_resigns_to_a_new_one_is_rated():
    """The rule is about new accounts leaving: one that has played its
    twenty rated games loses a game it leaves, and its opponent wins it."""
    newcomer, _ = signed_up("newcomer")
    veteran, _ = signed_up("veteran", ELSEWHERE)
    make_established(veteran)
    game = japanese_game(newcomer, veteran)

    resign(game_id=game.pk, user=veteran)

    changes = {c.user_id: c.delta for c in RatingChange.objects.filter(game=game)}
    assert changes == {newcomer.pk: 20, veteran.pk: -10}


# New accounts that let their time run out


def play_out_with_timeouts(game: Game, user, runs_out) -> list[int]:
    """Play ``game`` to its end as its owner would: ``user``'s turn runs out
    (the timer moves for them, at the table's deadline) on their turns
    ``runs_out(n)`` holds for, ``n`` counting their turns from 0; every other
    move is the player's own. Returns the turns that ran out."""
    turns: list[int] = []
    ran_out: list[int] = []

    def decide(live):
        if live.to_move.user_id == user.pk:
            turns.append(live.version)
            if runs_out(len(turns) - 1):
                ran_out.append(len(turns) - 1)
                return Due(live.deadline + timedelta(seconds=1))
        return person_move(live, live.deadline - timedelta(seconds=1))

    with owner_of(game.pk) as table:
        table.play_out(decide)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    timeouts = GameEvent.objects.filter(
        game=game, cause=GameEvent.Cause.TIMEOUT, seat=seat_number(game, user)
    )
    assert timeouts.count() == len(ran_out)
    return ran_out


def seat_number(game: Game, user) -> int:
    return game.table.seats.get(user=user).number


def test_puppets_that_let_every_turn_run_out_give_the_main_account_no_rating():
    """The attack without leaving: three fresh accounts from three
    addresses stay at a ranked stake-0 table that never takes a seat away
    for timeouts (the lobby's ranked default) and let every turn run out,
    while the main account plays. They stay seated to the end of each game,
    whoever wins it; the main account gains nothing and stays off the top."""
    leader, _ = signed_up("leader", "192.0.2.50")
    runner_up, _ = signed_up("runnerup", "192.0.2.51")
    make_established(leader)
    make_established(runner_up)
    resign(game_id=japanese_game(leader, runner_up).pk, user=runner_up)
    main, _ = signed_up("main")

    for n, address in enumerate(("198.51.100.1", "198.51.100.2", "198.51.100.3")):
        puppet, _ = signed_up(f"puppet{n}", address)
        game = japanese_game(main, puppet)
        assert game.table.forfeit_after_timeouts == 0

        play_out_with_timeouts(game, puppet, lambda turn: True)

        assert game.result["left"] == []
        assert not RatingChange.objects.filter(game=game).exists()
        assert game.unrated.reason == UnratedReason.PROVISIONAL_TIMED_OUT

    assert not SharedAddress.objects.exists()
    assert not Rating.objects.filter(user=main).exists()
    assert player_rank(user_id=main.pk, category="japanese") is None
    top = leaderboard("japanese", limit=2)
    assert [standing.user_id for standing in top] == [leader.pk, runner_up.pk]


@pytest.mark.parametrize(
    "runs_out",
    [
        pytest.param(lambda turn: turn in (3, 40), id="two-timeouts"),
        pytest.param(lambda turn: turn % 5 == 4, id="one-turn-in-five"),
    ],
)
def test_a_new_account_whose_time_ran_out_now_and_then_is_rated(runs_out):
    """A slow player on a bad connection, playing its turns itself but for
    a few, or even one in five: the game is rated for both."""
    newcomer, _ = signed_up("newcomer")
    stranger, _ = signed_up("stranger", ELSEWHERE)
    game = japanese_game(stranger, newcomer)

    ran_out = play_out_with_timeouts(game, newcomer, runs_out)

    assert ran_out
    assert RatingChange.objects.filter(game=game).count() == 2
    assert not hasattr(game, "unrated")


def test_a_new_account_whose_time_ran_out_on_every_other_turn_left_the_game():
    newcomer, _ = signed_up("newcomer")
    stranger, _ = signed_up("stranger", ELSEWHERE)
    game = japanese_game(stranger, newcomer)

    play_out_with_timeouts(game, newcomer, lambda turn: turn % 2 == 1)

    assert not RatingChange.objects.filter(game=game).exists()
    assert game.unrated.reason == UnratedReason.PROVISIONAL_TIMED_OUT


def test_an_established_account_whose_time_runs_out_is_rated():
    """The rule is about new accounts: a game in which an established one
    lets its time run out is rated as before."""
    newcomer, _ = signed_up("newcomer")
    veteran, _ = signed_up("veteran", ELSEWHERE)
    make_established(veteran)
    game = japanese_game(newcomer, veteran)

    play_out_with_timeouts(game, veteran, lambda turn: True)

    changes = {c.user_id: c.delta for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {newcomer.pk, veteran.pk}
    assert changes[newcomer.pk] == -2 * changes[veteran.pk]  # K 40 against K 20


def test_a_game_finished_without_leaving_is_rated_though_listed():
    main, _ = signed_up("main")
    puppet, _ = signed_up("puppet")
    game = japanese_game(main, puppet)

    play_out(game.pk)

    assert RatingChange.objects.filter(game=game).count() == 2
    assert SharedAddress.objects.filter(game=game).exists()


def test_a_resignation_between_established_strangers_is_rated_as_before():
    main, _ = signed_up("main")
    stranger, _ = signed_up("stranger", ELSEWHERE)
    make_established(main)
    make_established(stranger)
    game = japanese_game(main, stranger)

    resign(game_id=game.pk, user=stranger)

    assert RatingChange.objects.filter(game=game).count() == 2


# The operators' list


def test_operators_list_the_games_with_filters():
    main, _ = signed_up("main")
    puppet, _ = signed_up("puppet")
    resigned = japanese_game(main, puppet)
    resign(game_id=resigned.pk, user=puppet)
    japanese_game(*(signed_up(name)[0] for name in ("third", "fourth")))
    operator = Client()
    operator.force_login(StaffUserFactory())

    everything = operator.get("/admin/accounts/sharedaddress/")
    left = operator.get("/admin/accounts/sharedaddress/?left=yes")
    signed_up_together = operator.get(
        "/admin/accounts/sharedaddress/?same_signup_address__exact=1"
    )

    assert everything.status_code == 200
    assert everything.context["cl"].result_count == 2
    assert [f.game_id for f in left.context["cl"].result_list] == [resigned.pk]
    assert signed_up_together.context["cl"].result_count == 2
    assert f"/admin/games/game/{resigned.pk}/change/" in left.content.decode()
