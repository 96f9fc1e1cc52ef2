"""The tournament pages: the list and one tournament in each state, and
registering and withdrawing through the page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from coins import services as coins
from tests.games.helpers import play_out
from tournaments import services
from tournaments.models import Board, Entry, Tournament
from tournaments.selectors import seat_of_user

from .support import (
    make_tournament,
    play_round,
    play_to_the_end,
    players,
    register_all,
    start_now,
)

pytestmark = pytest.mark.django_db

LIST = reverse("tournaments:list")


def detail(tournament) -> str:
    return reverse("tournaments:detail", args=[tournament.pk])


def register_url(tournament) -> str:
    return reverse("tournaments:register", args=[tournament.pk])


def withdraw_url(tournament) -> str:
    return reverse("tournaments:withdraw", args=[tournament.pk])


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def balance(user) -> int:
    return coins.wallet_of(user).balance


def pool(tournament) -> int:
    return coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL)


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def section(content: str, heading: str) -> str:
    """The list page's part under ``heading``, up to the next heading."""
    start = content.index(heading)
    end = content.find("<h2", start)
    return content[start : end if end != -1 else len(content)]


@pytest.fixture
def scheduled():
    tournament = make_tournament("japanese", name="Spring Swiss", entry_fee=100)
    register_all(tournament, players(3))
    return tournament


@pytest.fixture
def running():
    users = players(4)
    tournament = make_tournament("japanese", name="Night Swiss", rounds=2)
    register_all(tournament, users)
    assert start_now(tournament) == "started"
    tournament.refresh_from_db()
    return tournament, users


@pytest.fixture
def finished():
    users = players(2)
    tournament = make_tournament(
        "japanese", name="Quick Final", format="knockout", prize_split=[70, 30]
    )
    register_all(tournament, users)
    assert start_now(tournament) == "started"
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament, users


@pytest.fixture
def cancelled():
    tournament = make_tournament("japanese", name="Rainy Day Cup")
    register_all(tournament, players(2))
    services.tournament_cancel(tournament_id=tournament.pk, reason="server upgrade")
    tournament.refresh_from_db()
    return tournament


# --- The list -----------------------------------------------------------------


def test_the_list_shows_each_tournament_under_its_state(
    client, scheduled, running, finished, cancelled
):
    response = client.get(LIST)

    assert response.status_code == 200
    content = response.content.decode()
    upcoming = section(content, 'id="upcoming"')
    live = section(content, 'id="running"')
    recent = section(content, 'id="recent"')
    assert "Spring Swiss" in upcoming
    assert "Night Swiss" not in upcoming
    assert "Night Swiss" in live
    assert "round 1 of 2" in live
    assert "Quick Final" in recent and "Rainy Day Cup" in recent
    assert "Spring Swiss" not in recent
    assert detail(scheduled) in upcoming
    assert "Japanese Joker" in upcoming and "Swiss" in upcoming


def test_the_list_shows_fee_pool_and_players(client, scheduled, finished):
    response = client.get(LIST)

    (row,) = response.context["upcoming"]
    assert row.tournament == scheduled
    assert row.players == 3
    assert row.pool == 300
    upcoming = section(response.content.decode(), 'id="upcoming"')
    assert "3 / 64" in upcoming
    assert '<td class="num">300</td>' in upcoming
    (done,) = response.context["recent"]
    # A finished tournament's pool is paid out: the list shows the prizes.
    assert done.pool is None
    assert done.prizes == 200


def test_the_list_when_there_are_no_tournaments(client):
    content = client.get(LIST).content.decode()

    assert "No tournament is taking registrations right now." in content
    assert "No tournament has finished yet." in content


def test_the_navigation_links_to_the_tournaments(client):
    assert f'href="{LIST}"' in client.get(reverse("home")).content.decode()


# --- One tournament -----------------------------------------------------------


def test_a_scheduled_tournament_shows_its_rules_and_players(client, scheduled):
    response = client.get(detail(scheduled))

    assert response.status_code == 200
    content = response.content.decode()
    assert "Swiss: every round pairs players" in content
    assert "It is played over 3 rounds." in content
    assert "Each match is played to 11 points." in content
    assert "Each move has a timer of 30 seconds." in content
    assert "The entry fee is 100 Domino Coin" in content
    assert "3 of 64 players registered; it starts with at least 2." in content
    assert "Prize pool: <strong>300</strong> Domino Coin" in content
    # 50/30/20 of the 300 coins now in the pool.
    assert response.context["prizes"][0].coins == 150
    assert [p.percent for p in response.context["prizes"]] == ["50", "30", "20"]
    names = [e.user.username for e in scheduled.entries.order_by("registered_at")]
    assert response.context["registered"] == [(n, n) for n in names]
    for name in names:
        assert reverse("ratings:player", args=[name]) in content
    # Anonymous visitors are asked to sign in rather than shown the button.
    assert "Log in to register" in content
    assert register_url(scheduled) not in content


def test_a_signed_in_player_gets_the_register_button(scheduled):
    (alice,) = players(1)
    content = signed_in(alice).get(detail(scheduled)).content.decode()

    assert f'action="{register_url(scheduled)}"' in content
    assert "Register for 100 Domino Coin" in content
    assert "csrfmiddlewaretoken" in content
    assert withdraw_url(scheduled) not in content


def test_a_registered_player_gets_the_withdraw_button(scheduled):
    bob = scheduled.entries.first().user
    content = signed_in(bob).get(detail(scheduled)).content.decode()

    assert "You are registered." in content
    assert f'action="{withdraw_url(scheduled)}"' in content
    assert f'action="{register_url(scheduled)}"' not in content


def test_a_full_tournament_says_so(scheduled):
    Tournament.objects.filter(pk=scheduled.pk).update(max_players=3)
    (alice,) = players(1)
    content = signed_in(alice).get(detail(scheduled)).content.decode()

    assert "The tournament is full." in content
    assert register_url(scheduled) not in content


def test_a_running_tournament_shows_standings_and_pairings(client, running):
    tournament, users = running

    response = client.get(detail(tournament))

    content = response.content.decode()
    assert "Round 1 of 2 is being played by 4 players." in content
    rows = response.context["standings"]
    assert sorted(row.username for row in rows) == sorted(u.username for u in users)
    assert all(row.points == "0" and row.games == 0 for row in rows)
    assert "Buchholz" in content and "Sonneborn-Berger" in content
    boards = Board.objects.filter(round__tournament=tournament)
    assert boards.count() == 2
    for board in boards:
        assert reverse("games:table", args=[board.table_id]) in content
    (round_,) = response.context["rounds"]
    assert round_.playing and len(round_.boards) == 2
    assert "Round 1" in content and "Table 1" in content and "Table 2" in content
    # Nobody signed in: no table of theirs.
    assert 'data-your-table=""' in content
    assert "Go to your table" not in content
    # Registration is over; its list and buttons are gone.
    assert "Registered players" not in content


def test_a_player_in_a_running_round_is_shown_their_table(running):
    tournament, users = running
    seat = seat_of_user(tournament, users[0])
    table_url = reverse("games:table", args=[seat.board.table_id])

    content = signed_in(users[0]).get(detail(tournament)).content.decode()

    assert "Go to your table" in content
    assert f'href="{table_url}"' in content
    assert f'data-your-table="{table_url}"' in content
    yours = re.findall(r'<li class="board board-yours">(.*?)</li>', content, re.S)
    assert len(yours) == 1
    assert table_url in yours[0]
    assert users[0].username in yours[0]


def test_a_player_whose_game_ended_waits_for_the_round(running):
    tournament, users = running
    seat = seat_of_user(tournament, users[0])
    play_out(seat.board.table.game.pk)
    services.board_take_result(board_id=seat.board.pk)
    tournament.refresh_from_db()
    assert tournament.current_round == 1  # the other table still plays

    content = signed_in(users[0]).get(detail(tournament)).content.decode()

    assert "Go to your table" not in content
    assert "Your game of this round is over." in content
    assert 'data-your-table=""' in content


def test_a_tournament_cancelled_while_running(running):
    tournament, users = running
    services.tournament_cancel(tournament_id=tournament.pk, reason="power cut")

    response = signed_in(users[0]).get(detail(tournament))

    content = response.content.decode()
    assert "Cancelled: power cut." in content
    # Its games were called off: no table to go to, nothing to watch.
    assert "Go to your table" not in content
    assert 'data-your-table=""' in content
    assert "Watch" not in content and ">Play<" not in content
    assert content.count("called off") == 2
    (round_,) = response.context["rounds"]
    assert not round_.playing


def test_standings_and_results_after_a_round(running):
    tournament, users = running
    play_round(tournament)
    tournament.refresh_from_db()
    assert tournament.current_round == 2

    response = Client().get(detail(tournament))

    rows = response.context["standings"]
    assert sorted(row.points for row in rows) == ["0", "0", "1", "1"]
    assert all(row.games == 1 for row in rows)
    first, second = response.context["rounds"]
    assert (first.number, second.number) == (2, 1)
    assert not second.playing
    # Finished games are replayed, not watched.
    content = response.content.decode()
    for board in Board.objects.filter(round__tournament=tournament, round__number=1):
        assert reverse("games:replay", args=[board.table.game.pk]) in content
        assert f'href="{reverse("games:table", args=[board.table_id])}"' not in content
    assert "won" in content and "lost" in content


def test_a_finished_tournament_shows_places_and_prizes(client, finished):
    tournament, users = finished

    response = client.get(detail(tournament))

    content = response.content.decode()
    assert "Final results" in content
    assert "200 Domino Coin paid in prizes." in content
    winner = tournament.entries.get(place=1)
    runner_up = tournament.entries.get(place=2)
    assert (winner.prize, runner_up.prize) == (140, 60)
    rows = response.context["standings"]
    assert [(r.place, r.username, r.prize) for r in rows] == [
        (1, winner.user.username, 140),
        (2, runner_up.user.username, 60),
    ]
    assert "knocked out" in content
    assert response.context["pool"] is None
    assert "Prize pool:" not in content


def test_a_cancelled_tournament_shows_why(client, cancelled):
    content = client.get(detail(cancelled)).content.decode()

    assert "Cancelled: server upgrade." in content
    assert "Every entry fee still in the pool went back" in content
    assert "Register" not in content


def test_the_live_part_alone(client, running):
    tournament, _ = running

    response = client.get(detail(tournament) + "?fragment=1")

    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in content
    assert 'class="live-state"' in content
    assert "Standings" in content
    assert response["Cache-Control"].startswith("max-age=0")


def test_the_page_loads_its_script_and_socket_address(client, scheduled):
    content = client.get(detail(scheduled)).content.decode()

    assert "tournaments/tournament.js" in content
    assert f'data-socket="/ws/tournaments/{scheduled.pk}/"' in content
    assert f'data-url="{detail(scheduled)}?fragment=1"' in content


def test_an_unknown_tournament_is_not_found(client):
    assert client.get(reverse("tournaments:detail", args=[999999])).status_code == 404


@pytest.mark.slow
def test_a_multitable_round_shows_points_and_game_score():
    users = players(4)
    tournament = make_tournament("joker-nines", name="Joker Night", rounds=2)
    register_all(tournament, users)
    start_now(tournament)
    play_round(tournament)

    response = Client().get(detail(tournament))

    content = response.content.decode()
    assert "Game score" in content and "Buchholz" not in content
    assert "Places at a table score 4, 2, 1, 0 points" in content
    rows = response.context["standings"]
    # Four players at one table share 4 + 2 + 1 + 0 points, ties or not.
    assert abs(sum(float(row.points) for row in rows) - 7) < 0.05
    assert all(row.games == 1 for row in rows)


# --- Registering and withdrawing ----------------------------------------------


def test_registering_through_the_page_pays_the_fee(scheduled):
    (alice,) = players(1, coins_each=250)
    client = signed_in(alice)

    response = client.post(register_url(scheduled))

    assert response.status_code == 302
    assert response.headers["Location"] == detail(scheduled)
    assert balance(alice) == 150
    assert pool(scheduled) == 400
    assert scheduled.entries.get(user=alice).status == Entry.Status.REGISTERED
    assert messages_of(response) == [
        "You are registered. The entry fee of 100 Domino Coin is in the prize pool."
    ]
    assert "You are registered." in client.get(detail(scheduled)).content.decode()


def test_registering_twice_is_refused_and_charges_once(scheduled):
    (alice,) = players(1, coins_each=250)
    client = signed_in(alice)
    client.post(register_url(scheduled))

    response = client.post(register_url(scheduled), follow=True)

    assert balance(alice) == 150
    assert pool(scheduled) == 400
    assert scheduled.entries.filter(user=alice).count() == 1
    assert "You are already registered for this tournament." in (
        response.content.decode()
    )


def test_too_few_coins_changes_nothing(scheduled):
    (poor,) = players(1, coins_each=60)
    client = signed_in(poor)

    response = client.post(register_url(scheduled), follow=True)

    assert balance(poor) == 60
    assert pool(scheduled) == 300
    assert not scheduled.entries.filter(user=poor).exists()
    content = response.content.decode()
    assert "The entry fee is 100 Domino Coin, and your wallet holds fewer." in content
    # Still offered, for when the wallet holds enough.
    assert f'action="{register_url(scheduled)}"' in content


def test_a_full_tournament_refuses(scheduled):
    Tournament.objects.filter(pk=scheduled.pk).update(max_players=3)
    (alice,) = players(1)

    response = signed_in(alice).post(register_url(scheduled))

    assert messages_of(response) == ["The tournament is full."]
    assert balance(alice) == 1000
    assert pool(scheduled) == 300


def test_registration_is_closed_once_running(running):
    tournament, _ = running
    (late,) = players(1)

    response = signed_in(late).post(register_url(tournament))

    assert messages_of(response) == ["Registration for this tournament is closed."]
    assert balance(late) == 1000
    assert not tournament.entries.filter(user=late).exists()


def test_withdrawing_through_the_page_returns_the_fee(scheduled):
    (alice,) = players(1, coins_each=250)
    client = signed_in(alice)
    client.post(register_url(scheduled))

    response = client.post(withdraw_url(scheduled))

    assert balance(alice) == 250
    assert pool(scheduled) == 300
    assert scheduled.entries.get(user=alice).status == Entry.Status.WITHDRAWN
    # The registration's message is still waiting: no page showed it.
    assert messages_of(response)[-1] == (
        "You withdrew; the entry fee of 100 Domino Coin is back."
    )
    again = client.post(withdraw_url(scheduled))
    assert messages_of(again)[-1] == "You are not registered for this tournament."
    assert balance(alice) == 250


def test_registration_needs_a_signed_in_post(client, scheduled):
    response = client.post(register_url(scheduled))

    assert response.status_code == 302
    assert response.headers["Location"].startswith(reverse("accounts:login"))
    assert scheduled.entries.count() == 3
    (alice,) = players(1)
    assert signed_in(alice).get(register_url(scheduled)).status_code == 405
    assert signed_in(alice).post(withdraw_url(scheduled) + "x").status_code == 404


def test_registering_for_an_unknown_tournament(scheduled):
    (alice,) = players(1)
    url = reverse("tournaments:register", args=[scheduled.pk + 1000])

    assert signed_in(alice).post(url).status_code == 404
    assert balance(alice) == 1000


def test_a_tournament_past_its_start_time_takes_no_registrations(scheduled):
    Tournament.objects.filter(pk=scheduled.pk).update(
        starts_at=scheduled.starts_at - timedelta(hours=2)
    )
    (alice,) = players(1)
    client = signed_in(alice)

    content = client.get(detail(scheduled)).content.decode()
    response = client.post(register_url(scheduled))

    assert "Registration is closed: the tournament starts in a moment." in content
    assert register_url(scheduled) not in content
    assert messages_of(response) == ["Registration for this tournament is closed."]


def test_a_tournament_table_links_back_to_its_tournament(running):
    tournament, users = running
    board = Board.objects.filter(round__tournament=tournament, is_bye=False).first()

    response = signed_in(users[0]).get(reverse("games:table", args=[board.table_id]))

    content = response.content.decode()
    assert detail(tournament) in content
    assert f"{tournament.name}, round 1" in content
