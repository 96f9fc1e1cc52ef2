"""Arena tournaments through the services: pairing as games end, the time
limit, the end and the prizes, on the live tables."""

from __future__ import annotations

from datetime import timedelta

import pytest

from coins import services as coins
from tests.games.helpers import play_out
from tournaments import services
from tournaments.models import Board, Entry, Round, Tournament
from tournaments.standings import standings

from .support import make_tournament, open_boards, players, register_all

pytestmark = pytest.mark.django_db


def arena(count: int, minutes: int = 30, **fields):
    users = players(count)
    tournament = make_tournament(
        "japanese", format="arena", duration_minutes=minutes, **fields
    )
    register_all(tournament, users)
    start = tournament.starts_at + timedelta(seconds=1)
    assert services.tournament_start(tournament_id=tournament.pk, now=start)
    tournament.refresh_from_db()
    return tournament, users


def finish_board(board: Board, now=None, absent=frozenset()) -> None:
    play_out(board.table.game.pk, absent)
    services.board_take_result(board_id=board.pk, now=now)


def pairs_of(boards) -> set[frozenset]:
    return {frozenset(s.entry.user_id for s in board.seats.all()) for board in boards}


def test_an_arena_starts_with_every_player_paired_in_one_round():
    tournament, users = arena(4)
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.rounds == 1 and tournament.round_set.count() == 1
    assert tournament.ends_at == tournament.started_at + timedelta(minutes=30)
    boards = open_boards(tournament)
    assert len(boards) == 2
    assert set().union(*pairs_of(boards)) == {user.pk for user in users}


def test_players_are_paired_again_as_soon_as_someone_else_is_free():
    tournament, _ = arena(4)
    first, second = open_boards(tournament)
    finish_board(first)
    # The only free players met just now; the other game goes on: they wait.
    assert len(open_boards(tournament)) == 1
    finish_board(second)
    boards = open_boards(tournament)
    assert len(boards) == 2
    # Nobody meets the last opponent; the two winners meet.
    assert not pairs_of(boards) & pairs_of([first, second])
    winners = {
        seat.entry_id
        for board in (first, second)
        for seat in board.seats.all()
        if seat.won
    }
    assert any({s.entry_id for s in board.seats.all()} == winners for board in boards)


def test_an_odd_player_waits_for_the_next_game_to_end():
    tournament, users = arena(3)
    (board,) = open_boards(tournament)
    playing = {s.entry.user_id for s in board.seats.all()}
    (waiting,) = {user.pk for user in users} - playing
    finish_board(board)
    (next_board,) = open_boards(tournament)
    seated = {s.entry.user_id for s in next_board.seats.all()}
    assert waiting in seated
    # The loser of that game and the one who waited, both on 0 points, are
    # neighbours in the standings; the winner, alone on 2, waits.
    (loser,) = [s.entry.user_id for s in board.seats.all() if not s.won]
    assert seated == {waiting, loser}


def test_when_the_time_is_up_games_finish_and_count_then_the_prizes_are_paid():
    tournament, users = arena(4, minutes=10)
    total = coins.ledger_total()
    first, second = open_boards(tournament)
    after_the_end = tournament.ends_at + timedelta(seconds=1)
    finish_board(first, now=after_the_end)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    finish_board(second, now=after_the_end)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert not open_boards(tournament)
    assert tournament.round_set.get().status == Round.Status.FINISHED
    # Both games counted: each winner has 2 points.
    rows = standings(tournament)
    assert sorted(row.points for row in rows) == [0, 0, 2, 2]
    entries = list(tournament.entries.all())
    assert sum(e.prize for e in entries) == 100 * len(users)
    assert coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL) == 0
    assert coins.ledger_total() == total
    assert {e.place for e in entries} == {1, 3}


def test_the_tick_finishes_an_arena_whose_time_is_up_and_pairs_no_more():
    tournament, _ = arena(2, minutes=10)
    (board,) = open_boards(tournament)
    finish_board(board)
    # A rematch (nothing else is played) before the end ...
    (rematch,) = open_boards(tournament)
    finish_board(rematch, now=tournament.ends_at + timedelta(seconds=1))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Board.objects.filter(round__tournament=tournament).count() == 2


def test_the_tick_pairs_free_players_and_ends_an_idle_arena():
    tournament, _ = arena(4, minutes=10)
    for board in open_boards(tournament):
        play_out(board.table.game.pk)
    # The results are taken in by the sweep, which pairs the four again.
    services.board_results_sweep(now=tournament.started_at + timedelta(minutes=1))
    assert len(open_boards(tournament)) == 2
    for board in open_boards(tournament):
        play_out(board.table.game.pk)
    after_the_end = tournament.ends_at + timedelta(seconds=1)
    services.board_results_sweep(now=after_the_end)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_the_tick_alone_finishes_an_arena_left_with_nothing_to_play():
    tournament, _ = arena(2, minutes=10)
    (board,) = open_boards(tournament)
    play_out(
        board.table.game.pk,
        absent=frozenset(e.user_id for e in tournament.entries.all()),
    )
    services.board_take_result(board_id=board.pk)
    # Both were absent: both are out, nobody is left to pair.
    assert not open_boards(tournament)
    assert set(tournament.entries.values_list("status", flat=True)) == {
        Entry.Status.DROPPED
    }
    assert services.arena_tick(now=tournament.ends_at - timedelta(seconds=1)) == 0
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert services.arena_tick(now=tournament.ends_at) == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_player_who_makes_no_move_in_a_game_is_paired_no_more():
    tournament, users = arena(4)
    first, second = open_boards(tournament)
    sleeper = first.seats.all()[0].entry
    finish_board(first, absent=frozenset({sleeper.user_id}))
    finish_board(second)
    sleeper.refresh_from_db()
    assert sleeper.status == Entry.Status.DROPPED
    (board,) = open_boards(tournament)
    assert sleeper.pk not in {s.entry_id for s in board.seats.all()}


def test_a_result_taken_in_twice_pairs_once():
    tournament, _ = arena(4)
    first, second = open_boards(tournament)
    finish_board(first)
    finish_board(second)
    assert not services.board_take_result(board_id=second.pk)
    assert services.arena_tick(now=tournament.started_at + timedelta(minutes=1)) == 0
    assert len(open_boards(tournament)) == 2


def test_arena_games_between_people_are_rated_when_the_match_is_full():
    tournament, _ = arena(2, short_match=False)
    assert tournament.rating_category == "japanese"
    (board,) = open_boards(tournament)
    assert board.table.ranked


def test_the_api_gives_the_arena_standings_with_performance_and_streaks(api_client):
    tournament, _ = arena(4)
    for board in open_boards(tournament):
        finish_board(board)
    base = f"/api/v1/tournaments/{tournament.pk}/"

    detail = api_client.get(base).json()
    assert (detail["format"], detail["duration_minutes"]) == ("arena", 30)
    assert detail["ends_at"] is not None
    body = api_client.get(base + "standings/").json()
    assert body["tiebreaks"] == ["performance"]
    rows = body["rows"]
    # Two winners on 2 points (against a 1500 start rating: 1900), two
    # losers on none (1100); nobody has two wins in a row yet.
    assert [(r["points"], r["tiebreaks"]) for r in rows] == [
        ("2", ["1900"]),
        ("2", ["1900"]),
        ("0", ["1100"]),
        ("0", ["1100"]),
    ]
    assert [r["place"] for r in rows] == [1, 1, 3, 3]
    assert not any(r["streak"] for r in rows)
    pairings = api_client.get(base + "pairings/").json()
    (only_round,) = pairings["rounds"]
    assert len(only_round["boards"]) == 4


def test_the_page_shows_the_arena_rules_clock_and_games(client):
    tournament, users = arena(4)
    for board in open_boards(tournament):
        finish_board(board)
    client.force_login(users[0])
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Arena: as soon as your game ends" in page
    assert "Players are paired for 30 minutes" in page
    assert "Pairing stops at" in page
    assert "Game 4" in page and "Round 1" not in page
    assert "Performance" in page
