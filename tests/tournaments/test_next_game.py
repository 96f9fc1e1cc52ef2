"""What the result of a tournament game says comes next, as the table page
reads it (tournaments:next): the next round's wait, its time and table, the
end."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.games.helpers import play_out
from tournaments import services
from tournaments.models import BoardSeat, Tournament

from .support import make_tournament, open_boards, players, register_all, start_now

pytestmark = pytest.mark.django_db


def line(user, table_id: int) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("tournaments:next", args=[table_id]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_swiss_result_says_when_and_where_the_next_round_is():
    people = players(4)
    tournament = make_tournament(rounds=2)
    register_all(tournament, people)
    start_now(tournament)
    first, second = open_boards(tournament)
    play_out(first.table.game.pk)
    services.board_take_result(board_id=first.pk)
    player = BoardSeat.objects.filter(board=first).first().entry.user

    # The other game of round 1 goes on: round 2 waits for it.
    text = line(player, first.table_id)
    assert "Round 2 begins when the game still being played ends." in text

    play_out(second.table.game.pk)
    services.board_take_result(board_id=second.pk)
    seat = BoardSeat.objects.select_related("board__round", "board__table").get(
        board__round__number=2,
        board__round__tournament=tournament,
        entry__user=player,
    )
    text = line(player, first.table_id)
    assert "Round 2 began at " in text
    assert f"Your game is at table {seat.board.table_id}." in text
    assert f'data-table-url="/tables/{seat.board.table_id}/"' in text

    # Someone with no part in the tournament is told nothing.
    assert (
        Client().get(reverse("tournaments:next", args=[first.table_id])).status_code
        == 302
    )
    outsider = Client()
    outsider.force_login(players(1)[0])
    response = outsider.get(reverse("tournaments:next", args=[first.table_id]))
    assert response.status_code == 204


def test_the_last_result_says_the_tournament_is_over():
    people = players(2)
    tournament = make_tournament(rounds=1)
    register_all(tournament, people)
    start_now(tournament)
    (board,) = open_boards(tournament)
    play_out(board.table.game.pk)
    services.board_take_result(board_id=board.pk)
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert "The tournament is over." in line(people[0], board.table_id)
