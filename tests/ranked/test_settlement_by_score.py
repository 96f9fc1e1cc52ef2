"""Ranked tables settled by score: opening one, a whole game's Domino Coin,
annulment, and the nets shown by the API, the replay and the live table."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from coins import services as coins
from coins.models import Entry
from common.errors import ApplicationError
from games import selectors, services, stakes
from games.live import journal, loading
from games.models import Game, Table
from games.services.annul import game_annul
from games.settlement import score_settlement
from ratings.categories import preset
from ratings.models import RatingChange
from tests.factories import StaffUserFactory, UserFactory
from tests.games.helpers import resign
from tests.ranked.helpers import (
    balances,
    finish,
    players_of,
    ranked_game,
    time_out,
    users_by_seat,
)
from tests.ranked.test_lobby import embedded_json

pytestmark = pytest.mark.django_db

WELCOME = 1000
LOBBY = reverse("games:lobby")
CREATE = reverse("games:table-create")


def score_table(category="japanese", *, stake=50, points_per_coin=10, users=None):
    """A ranked table settled by score, every seat but the last taken."""
    profile, options = preset(category)
    users = users or [UserFactory() for _ in range(players_of(category))]
    table = services.table_create(
        user=users[0],
        profile=profile,
        options=options,
        ranked=True,
        stake=stake,
        settlement="score",
        points_per_coin=points_per_coin,
    )
    for number, user in enumerate(users[1:-1], start=1):
        services.seat_take(table_id=table.pk, user=user, number=number)
    return table, users


def score_game(category="japanese", **kwargs) -> Game:
    """A game just started at a ``score_table``."""
    table, users = score_table(category, **kwargs)
    services.seat_take(table_id=table.pk, user=users[-1], number=len(users) - 1)
    return Game.objects.get(table=table)


def escrow_of(game: Game) -> int:
    return coins.escrow_balance(stakes.escrow_ref(game))


def assert_books_balance() -> None:
    assert coins.ledger_total() == 0
    assert coins.ledger_mismatches() == []


def moved(users) -> list[int]:
    return [balance - WELCOME for balance in balances(users)]


def written_end(game: Game, totals: list[int], left=()) -> Game:
    """The game ended with these totals, written by hand (real deals rarely
    give round numbers; settlement reads only the result)."""
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        result={
            "totals": totals,
            "places": [1 + sum(t > mine for t in totals) for mine in totals],
            "winners": [s for s, t in enumerate(totals) if t == max(totals)],
            "left": list(left),
        },
    )
    game.refresh_from_db()
    return game


# Opening a table


def test_a_ranked_table_with_a_stake_may_be_settled_by_score():
    table, _ = score_table("joker-nines", stake=100, points_per_coin=5)

    table.refresh_from_db()
    assert (table.settlement, table.points_per_coin, table.stake) == ("score", 5, 100)
    assert table.settled_by_score


def test_tables_are_settled_by_the_pot_unless_asked():
    game = ranked_game("japanese", stake=10)
    assert (game.table.settlement, game.table.settled_by_score) == ("pot", False)


@pytest.mark.parametrize(
    ("ranked", "stake", "settlement", "rate", "message"),
    [
        (True, 0, "score", 10, "only a ranked table with a stake"),
        (False, 0, "score", 10, "only a ranked table with a stake"),
        (True, 50, "score", 7, "the rate cannot be"),
        (True, 50, "score", 0, "the rate cannot be"),
        (True, 50, "pot", "10", "the rate cannot be"),
        (True, 50, "winner", 10, "there is no settlement"),
    ],
)
def test_settlement_by_score_is_refused_otherwise_and_nothing_opens(
    ranked, stake, settlement, rate, message
):
    user = UserFactory()
    profile, options = preset("japanese")

    with pytest.raises(ApplicationError, match=message) as refused:
        services.table_create(
            user=user,
            profile=profile,
            options=options,
            ranked=ranked,
            stake=stake,
            settlement=settlement,
            points_per_coin=rate,
        )

    assert refused.value.code == "bad_options"
    assert not Table.objects.exists()
    assert balances([user]) == [WELCOME]


def test_the_database_refuses_a_score_table_without_a_stake():
    table, _ = score_table()

    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=table.pk).update(stake=0)


# Settlement


def test_a_whole_japanese_game_moves_the_wallets_by_the_difference():
    """At one coin a point with a deposit of 50 (more than a match to 21 can
    differ by), the loser pays the winner the whole difference."""
    game = finish(score_game("japanese", stake=50, points_per_coin=1))
    users = users_by_seat(game)
    first, second = game.result["totals"]

    assert game.status == Game.Status.FINISHED
    assert first != second
    assert moved(users) == [first - second, second - first]
    assert escrow_of(game) == 0
    assert RatingChange.objects.filter(game=game).count() == 2
    assert_books_balance()


def test_a_whole_four_player_game_moves_the_wallets_by_the_nets():
    game = finish(score_game("joker-nines", stake=100, points_per_coin=10))
    users = users_by_seat(game)
    totals = game.result["totals"]

    nets = moved(users)
    assert nets == score_settlement(totals, 100, 10, left=game.result["left"])
    assert sum(nets) == 0 and min(nets) >= -100
    assert any(nets)
    assert nets[totals.index(max(totals))] >= 0
    assert escrow_of(game) == 0
    assert RatingChange.objects.filter(game=game).count() == 4
    assert_books_balance()


def test_the_worked_example_is_paid_as_worked():
    """Totals 350, 120, -200, 50 at 10 points a coin, deposit 100 (worked
    out in tests/games/test_settlement.py): +102, +13, -100, -15."""
    game = written_end(score_game("joker-nines", stake=100), [350, 120, -200, 50])
    users = users_by_seat(game)

    stakes.settle(game)

    assert moved(users) == [102, 13, -100, -15]
    payouts = Entry.objects.filter(ref=game.escrow_ref, reason=Entry.Reason.PAYOUT)
    # Seat 2's payout is 0: no entry for it.
    assert sorted(payouts.values_list("credit__owner", "amount")) == sorted(
        [(users[0].pk, 202), (users[1].pk, 113), (users[3].pk, 85)]
    )
    assert escrow_of(game) == 0
    assert_books_balance()


def test_settling_again_pays_nothing_more():
    game = finish(score_game("joker-nines", stake=50))
    users = users_by_seat(game)
    after = balances(users)
    entries = Entry.objects.count()

    stakes.settle(game)
    stakes.settle(Game.objects.get(pk=game.pk))

    assert balances(users) == after
    assert Entry.objects.count() == entries
    assert escrow_of(game) == 0
    assert_books_balance()


def test_a_resigner_loses_the_deposit_whatever_the_score():
    game = score_game("japanese", stake=50, points_per_coin=1)
    users = users_by_seat(game)
    time_out(game)

    resign(game_id=game.pk, user=users[1])

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert moved(users) == [50, -50]
    assert_books_balance()


def test_a_leaver_ahead_on_points_still_forfeits_the_deposit():
    """By score alone seat 0 would win 10 coins (15 - 5 at one a point);
    having left, it forfeits its deposit to the player who stayed."""
    game = score_game("japanese", stake=50, points_per_coin=1)
    game = written_end(game, [15, 5], left=[0])
    users = users_by_seat(game)

    stakes.settle(game)

    assert moved(users) == [-50, 50]
    assert_books_balance()


def test_annulling_a_score_settled_game_gives_every_deposit_back():
    game = written_end(score_game("joker-nines", stake=100), [350, 120, -200, 50])
    stakes.settle(game)
    users = users_by_seat(game)
    assert moved(users) == [102, 13, -100, -15]

    assert game_annul(game_id=game.pk, by=StaffUserFactory()) is True

    game.refresh_from_db()
    assert game.status == Game.Status.ANNULLED
    assert balances(users) == [WELCOME] * 4
    assert escrow_of(game) == 0
    back = Entry.objects.filter(ref=game.escrow_ref, reason=Entry.Reason.ANNUL)
    refunds = back.filter(idempotency_key__startswith=f"annul:game:{game.pk}:refund")
    assert sorted(refunds.values_list("amount", flat=True)) == [100] * 4
    assert_books_balance()


def test_annulling_a_whole_played_score_game_restores_the_wallets():
    game = finish(score_game("japanese", stake=10, points_per_coin=1))
    users = users_by_seat(game)
    assert any(moved(users))

    game_annul(game_id=game.pk, by=StaffUserFactory())

    assert balances(users) == [WELCOME, WELCOME]
    assert not RatingChange.objects.filter(game=game).exists()
    assert_books_balance()


# What is shown


def test_the_nets_are_read_from_the_ledger():
    game = written_end(score_game("joker-nines", stake=100), [350, 120, -200, 50])
    # Only the deposits have moved so far.
    assert selectors.game_coin_nets(game) == [-100] * 4

    stakes.settle(game)

    assert selectors.game_coin_nets(game) == [102, 13, -100, -15]


def test_a_pot_game_nets_are_the_payout_minus_the_stake():
    game = finish(ranked_game("joker-nines", stake=10))
    users = users_by_seat(game)

    nets = selectors.game_coin_nets(game)

    assert nets == moved(users)
    assert sorted(nets)[0] == -10 and sum(nets) == 0


def test_games_without_coins_or_not_finished_have_no_nets():
    assert selectors.game_coin_nets(finish(ranked_game("japanese"))) is None
    playing = score_game()
    assert selectors.game_coin_nets(playing) is None
    game_annul(game_id=playing.pk, by=StaffUserFactory())
    assert selectors.game_coin_nets(Game.objects.get(pk=playing.pk)) is None


def test_the_api_shows_the_settlement_and_the_nets(api_client):
    game = written_end(score_game("joker-nines", stake=100), [350, 120, -200, 50])
    stakes.settle(game)
    unstaked = finish(ranked_game("japanese"))

    detail = api_client.get(f"/api/v1/games/{game.pk}/").json()
    listed = {g["id"]: g for g in api_client.get("/api/v1/games/").json()["results"]}

    for shown in (detail, listed[game.pk]):
        assert (shown["settlement"], shown["points_per_coin"]) == ("score", 10)
        assert shown["stake"] == 100
        assert shown["result"]["nets"] == [102, 13, -100, -15]
    assert listed[unstaked.pk]["settlement"] == "pot"
    assert listed[unstaked.pk]["points_per_coin"] is None
    assert listed[unstaked.pk]["result"]["nets"] is None


@pytest.mark.slow
def test_the_api_list_reads_every_games_nets_in_one_query(
    api_client, django_assert_max_num_queries
):
    for _ in range(4):
        finish(score_game("japanese", stake=10, points_per_coin=1))
    # As many as five games without stakes (tests/ranked/test_api.py).
    with django_assert_max_num_queries(7):
        games = api_client.get("/api/v1/games/").json()["results"]
    assert [sum(g["result"]["nets"]) for g in games] == [0] * 4


def test_the_replay_page_shows_each_players_nets(client):
    game = finish(score_game("japanese", stake=50, points_per_coin=1))
    users = users_by_seat(game)
    first, second = game.result["totals"]
    won, lost = (0, 1) if first > second else (1, 0)
    coins_won = abs(first - second)

    content = client.get(reverse("games:replay", args=[game.pk])).content.decode()

    assert "Domino Coin won and lost" in content
    assert "Settled by score, 1 coin per point, deposit 50 Domino Coin." in content
    section = content[content.index('id="coin-nets"') :]
    assert f"+{coins_won} Domino Coin" in section
    assert f"\u2212{coins_won} Domino Coin" in section
    assert section.index(users[0].username) < section.index(users[1].username)
    assert moved(users)[won] == coins_won and moved(users)[lost] == -coins_won


def test_the_replay_of_a_game_without_a_stake_shows_no_coins(client):
    game = finish(ranked_game("japanese"))
    content = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert 'id="coin-nets"' not in content


def test_the_live_table_gets_the_nets_with_the_final_snapshot(client):
    game = finish(score_game("japanese", stake=50, points_per_coin=1))
    users = users_by_seat(game)
    client.force_login(users[0])

    content = client.get(reverse("games:table", args=[game.table_id])).content
    snapshot = embedded_json(content.decode(), "table-snapshot")

    assert snapshot["nets"] == moved(users)
    assert "Settled by score, 1 coin per point, deposit 50 Domino Coin" in (
        content.decode()
    )


def test_writing_a_games_end_returns_what_its_final_snapshot_adds():
    """The owner sends the end's snapshot with what writing the end returned,
    reading nothing back: the coins as the ledger holds them once settled,
    and every deal revealed."""
    game = score_game("japanese", stake=50, points_per_coin=1)
    users = users_by_seat(game)
    live = loading.load(game.pk)
    step = live.decide_automatic(live.deadline)
    while not step.ends_game:
        journal.write_sync(live, step)
        live.commit(step)
        step = live.decide_automatic(live.deadline)

    ending = journal.finish_sync(live, step)

    game.refresh_from_db()
    assert ending["nets"] == moved(users) and sum(ending["nets"]) == 0
    assert ending == selectors.game_ending(game)
    assert len(ending["reveal"]) == len(game.commitments)


def test_a_game_in_play_sends_no_nets(client):
    game = score_game("japanese", stake=50)
    client.force_login(users_by_seat(game)[0])
    content = client.get(reverse("games:table", args=[game.table_id])).content
    assert "nets" not in embedded_json(content.decode(), "table-snapshot")


# The lobby


@pytest.fixture
def signed_in(client):
    player = UserFactory()
    client.force_login(player)
    client.player = player
    return client


RANKED = {"ranked": "on", "category": "joker-nines", "turn_seconds": "30"}


def test_the_form_offers_the_settlement_and_the_rate(signed_in):
    content = signed_in.get(LOBBY).content.decode()

    assert 'name="settlement"' in content
    assert '<option value="score"' in content and '<option value="pot"' in content
    assert 'name="points_per_coin"' in content
    for rate in (1, 5, 10, 50, 100):
        assert f'<option value="{rate}"' in content
    assert "1 coin per 10 points" in content


def test_the_lobby_opens_a_table_settled_by_score(signed_in):
    posted = {**RANKED, "stake": "100", "settlement": "score", "points_per_coin": "50"}

    response = signed_in.post(CREATE, posted)

    table = Table.objects.get()
    assert response.status_code == 302
    assert (table.settlement, table.points_per_coin, table.stake) == ("score", 50, 100)
    lobby = signed_in.get(LOBBY).content.decode()
    assert "Settled by score, 1 coin per 50 points, deposit 100 Domino Coin" in lobby
    page = signed_in.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "settled by score, 1 coin per 50 points, deposit 100 Domino Coin" in page


def test_without_the_new_fields_the_lobby_opens_a_pot_table(signed_in):
    signed_in.post(CREATE, {**RANKED, "stake": "10"})
    table = Table.objects.get()
    assert (table.settlement, table.points_per_coin) == ("pot", 10)
    lobby = signed_in.get(LOBBY).content.decode()
    start = lobby.index(f'id="table-{table.pk}"')
    card = lobby[start : lobby.index("</article>", start)]
    assert "Stake 10 Domino Coin" in card and "Settled by score" not in card


@pytest.mark.parametrize(
    "posted",
    [
        {**RANKED, "stake": "0", "settlement": "score"},
        {
            "profile": "japanese",
            "target": "11",
            "turn_seconds": "30",
            "settlement": "score",
        },
        {**RANKED, "stake": "10", "settlement": "score", "points_per_coin": "3"},
    ],
)
def test_the_lobby_refuses_score_without_a_ranked_stake(signed_in, posted):
    response = signed_in.post(CREATE, posted)

    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "settlement" in errors or "points_per_coin" in errors
    assert not Table.objects.exists()
