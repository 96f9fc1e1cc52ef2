"""A tournament's life: the start (exactly once), too few players, rounds on
live tables, no-shows, the end with prizes, cancelling, recurring ones.

Games are played out through the live-play services (the autopilot moves for
the people, the timers for bots and absentees), and results are taken in by
the same service the worker's task calls.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, time, timedelta

import pytest
from django.test import TestCase

from coins import services as coins
from common.errors import ApplicationError, NotAllowed
from games.models import Game, GameEvent, Seat
from ratings.models import Rating
from tests.games.helpers import abort, play_out
from tournaments import services
from tournaments.models import Board, BoardSeat, Entry, Round, Schedule, Tournament
from tournaments.selectors import seat_of_user
from tournaments.standings import standings

from .support import (
    make_tournament,
    open_boards,
    play_round,
    play_to_the_end,
    players,
    register_all,
    start_now,
)

pytestmark = pytest.mark.django_db


def pool(tournament) -> int:
    return coins.escrow_balance(tournament.pool_ref, coins.Kind.TOURNAMENT_POOL)


def wallets(users) -> dict[int, int]:
    return {user.pk: coins.wallet_of(user).balance for user in users}


def boards_of(tournament, number: int) -> list[Board]:
    return list(
        Board.objects.filter(round__tournament=tournament, round__number=number)
        .prefetch_related("seats")
        .order_by("number")
    )


def entry_ids(board: Board) -> list:
    return [seat.entry_id for seat in board.seats.all()]


# -- the start ---------------------------------------------------------------


def test_nothing_starts_before_its_time():
    tournament = make_tournament()
    register_all(tournament, players(2))

    outcome = services.tournament_start(
        tournament_id=tournament.pk, now=tournament.starts_at - timedelta(seconds=1)
    )

    assert outcome is None
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SCHEDULED


def test_a_second_start_does_nothing():
    tournament = make_tournament(rounds=2)
    register_all(tournament, players(4))

    assert start_now(tournament) == "started"
    assert start_now(tournament) is None
    assert (
        services.tournament_start_due(now=tournament.starts_at + timedelta(minutes=1))
        == {}
    )

    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Board.objects.filter(round__tournament=tournament).count() == 2
    assert Game.objects.count() == 2


def test_too_few_players_cancels_and_refunds_every_fee():
    tournament = make_tournament(min_players=4, entry_fee=100)
    users = players(3)
    register_all(tournament, users)
    total = coins.ledger_total()

    outcome = services.tournament_start_due(now=tournament.starts_at)

    assert outcome == {tournament.pk: "cancelled"}
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert tournament.cancel_reason == "too few players"
    assert wallets(users) == {user.pk: 1000 for user in users}
    assert pool(tournament) == 0
    assert coins.ledger_total() == total
    assert not Game.objects.exists()


def test_a_banned_player_is_refunded_and_left_out_at_the_start():
    tournament = make_tournament(entry_fee=100, rounds=1)
    users = players(3)
    register_all(tournament, users)
    banned = users[2]
    banned.is_active = False
    banned.save()

    assert start_now(tournament) == "started"

    assert coins.wallet_of(banned).balance == 1000
    assert pool(tournament) == 200
    assert Entry.objects.get(user=banned).status == Entry.Status.WITHDRAWN
    seated = BoardSeat.objects.filter(board__round__tournament=tournament)
    assert banned.pk not in {s.entry.user_id for s in seated}


def test_seeds_follow_the_rating_in_the_category():
    users = players(4)
    for user, rating in zip(users, (1400, 1700, 1500, 1650), strict=True):
        Rating.objects.create(
            user=user, category="japanese", rating=rating, peak=rating
        )
    tournament = make_tournament(format="knockout")
    register_all(tournament, users)

    start_now(tournament)

    seeds = {e.user_id: e.seed for e in tournament.entries.all()}
    assert [seeds[u.pk] for u in users] == [4, 1, 3, 2]
    # Seed 1 meets seed 4, seed 2 meets seed 3.
    first, second = boards_of(tournament, 1)
    by_seed = {e.seed: e.pk for e in tournament.entries.all()}
    assert entry_ids(first) == [by_seed[1], by_seed[4]]
    assert entry_ids(second) == [by_seed[2], by_seed[3]]


def test_players_are_seated_at_live_tables_with_the_tournament_rules():
    tournament = make_tournament(short_match=True, turn_seconds=45)
    users = players(2)
    register_all(tournament, users)

    start_now(tournament)

    (board,) = open_boards(tournament)
    table = board.table
    assert table.profile == "japanese"
    assert table.options == {"target": 11}
    assert table.turn_seconds == 45
    assert table.managed and table.forfeit_after_timeouts == 3
    assert {s.user_id for s in Seat.objects.filter(table=table)} == {
        u.pk for u in users
    }
    assert board.table.game.status == Game.Status.PLAYING
    # Nobody can call a tournament game off.
    with pytest.raises(NotAllowed):
        abort(game_id=board.table.game.pk, user=users[0])


# -- whole tournaments ---------------------------------------------------------


def finish_and_check_the_books(tournament, users, fee: int):
    total = coins.ledger_total()
    before = sum(wallets(users).values())
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert pool(tournament) == 0
    assert coins.ledger_total() == total
    entries = list(tournament.entries.all())
    assert sum(e.prize for e in entries) == fee * len(users)
    assert sum(wallets(users).values()) == before + fee * len(users)
    for entry in entries:
        assert coins.wallet_of(entry.user).balance == 1000 - fee + entry.prize
    return entries


def test_a_swiss_tournament_from_start_to_prizes():
    users = players(5)
    tournament = make_tournament(
        "japanese", format="swiss", rounds=3, entry_fee=100, prize_split=[60, 40]
    )
    register_all(tournament, users)
    start_now(tournament)

    entries = finish_and_check_the_books(tournament, users, fee=100)

    rounds = [boards_of(tournament, n) for n in (1, 2, 3)]
    met = Counter()
    byes = []
    for boards in rounds:
        seated = [pk for board in boards for pk in entry_ids(board)]
        assert sorted(seated) == sorted(e.pk for e in entries)  # each once
        for board in boards:
            if board.is_bye:
                byes += entry_ids(board)
            else:
                met[frozenset(entry_ids(board))] += 1
    assert len(byes) == 3 and len(set(byes)) == 3  # a new player each round
    assert max(met.values()) == 1  # five players, three rounds: no rematch
    places = sorted(e.place for e in entries)
    assert places[0] == 1
    paid = sorted((e.prize for e in entries), reverse=True)
    assert sum(paid) == 500
    winner = min(entries, key=lambda e: e.place)
    assert winner.prize >= 250


def test_a_knockout_gives_byes_to_the_top_seeds_and_ends_with_one_winner():
    users = players(6)
    tournament = make_tournament("japanese", format="knockout", entry_fee=50)
    register_all(tournament, users)
    start_now(tournament)
    tournament.refresh_from_db()
    assert tournament.rounds == 3

    first = boards_of(tournament, 1)
    byes = [b for b in first if b.is_bye]
    seeds = {e.pk: e.seed for e in tournament.entries.all()}
    assert sorted(seeds[entry_ids(b)[0]] for b in byes) == [1, 2]

    entries = finish_and_check_the_books(tournament, users, fee=50)

    assert Counter(e.place for e in entries) == {1: 1, 2: 1, 3: 2, 5: 2}
    assert Counter(e.status for e in entries) == {
        Entry.Status.PLAYING: 1,
        Entry.Status.ELIMINATED: 5,
    }
    champion = next(e for e in entries if e.place == 1)
    assert champion.status == Entry.Status.PLAYING
    (final,) = boards_of(tournament, 3)
    assert champion.pk in entry_ids(final)


@pytest.mark.slow
def test_tables_of_four_fill_with_bots_that_do_not_count():
    users = players(6)
    tournament = make_tournament(
        "joker-nines", format="multitable", rounds=2, entry_fee=100
    )
    register_all(tournament, users)
    start_now(tournament)

    for board in boards_of(tournament, 1):
        ids = entry_ids(board)
        assert len(ids) == 4 and ids.count(None) == 1
    play_round(tournament)
    tablemates = {
        frozenset(p for p in entry_ids(b) if p is not None)
        for b in boards_of(tournament, 1)
    }
    for board in boards_of(tournament, 2):
        humans = [p for p in entry_ids(board) if p is not None]
        # Three from each table of round one: nobody meets a whole old table.
        assert not any(set(humans) <= table for table in tablemates)

    entries = finish_and_check_the_books(tournament, users, fee=100)

    rows = standings(tournament)
    assert len(rows) == 6 and all(row.games == 2 for row in rows)
    assert [row.place for row in rows] == sorted(e.place for e in entries)
    assert sum(row.points for row in rows) <= 2 * 2 * (4 + 2 + 1)


@pytest.mark.slow
def test_a_final_table_decides_the_top_four():
    users = players(6)
    tournament = make_tournament(
        "joker-nines", format="multitable", rounds=2, final_table=True, min_players=4
    )
    register_all(tournament, users)
    start_now(tournament)
    play_round(tournament)
    before_final = [row.entry.pk for row in standings(tournament)]

    (final,) = boards_of(tournament, 2)
    assert Round.objects.get(tournament=tournament, number=2).is_final_table
    assert set(entry_ids(final)) == set(before_final[:4])

    finish_and_check_the_books(tournament, users, fee=100)

    final_places = {s.entry_id: s.place for s in final.seats.all()}
    entries = {e.pk: e for e in tournament.entries.all()}
    finalists = sorted(final_places, key=lambda pk: entries[pk].place)
    assert [entries[pk].place for pk in finalists][0] == 1
    assert all(entries[pk].place <= 4 for pk in finalists)
    assert {entries[pk].place for pk in before_final[4:]} <= {5, 6}


def test_a_player_who_misses_a_whole_round_is_withdrawn():
    users = players(4)
    absent = users[0]
    tournament = make_tournament("japanese", format="swiss", rounds=3)
    register_all(tournament, users)
    start_now(tournament)

    play_round(tournament, absent=frozenset({absent.pk}))

    entry = Entry.objects.get(user=absent)
    assert entry.status == Entry.Status.DROPPED
    game = Game.objects.get(table__seats__user=absent)
    seat = Seat.objects.get(table=game.table, user=absent)
    # The timer made two moves; the third timeout gave the seat up: the game
    # was lost, not stalled.
    assert seat.left
    moves = game.events.filter(seat=seat.number, kind=GameEvent.Kind.ACTION)
    assert [e.cause for e in moves] == [GameEvent.Cause.TIMEOUT] * 3
    assert moves.last().action == {"seat": seat.number, "resign": True}
    assert seat.number not in game.result["winners"]
    # Round two pairs the three others (one of them gets the bye).
    seated = {pk for board in boards_of(tournament, 2) for pk in entry_ids(board)}
    assert entry.pk not in seated and len(seated) == 3

    play_to_the_end(tournament)
    entry.refresh_from_db()
    assert entry.place is not None  # still in the final standings


def test_each_result_is_taken_in_once():
    tournament = make_tournament(rounds=2)
    register_all(tournament, players(2))
    start_now(tournament)
    (board,) = open_boards(tournament)

    assert services.board_take_result(board_id=board.pk) is False  # still playing
    play_out(board.table.game.pk)
    assert services.board_take_result(board_id=board.pk) is True
    assert services.board_take_result(board_id=board.pk) is False
    assert services.board_results_sweep() == 0
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_the_sweep_takes_in_a_result_whose_message_was_lost():
    tournament = make_tournament(rounds=1)
    register_all(tournament, players(2))
    start_now(tournament)
    (board,) = open_boards(tournament)
    play_out(board.table.game.pk)

    assert services.board_results_sweep() == 1

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_an_ended_tournament_game_queues_its_result(monkeypatch):
    queued = []
    monkeypatch.setattr(
        "tournaments.tasks.board_ended.delay", lambda board_id: queued.append(board_id)
    )
    tournament = make_tournament(rounds=1)
    register_all(tournament, players(2))
    start_now(tournament)
    (board,) = open_boards(tournament)

    with TestCase.captureOnCommitCallbacks(execute=True):
        play_out(board.table.game.pk)

    assert queued == [board.pk]


# -- cancelling --------------------------------------------------------------


def test_cancelling_a_running_tournament_stops_its_games_and_refunds():
    users = players(4)
    tournament = make_tournament(rounds=3, entry_fee=100)
    register_all(tournament, users)
    start_now(tournament)
    first, second = open_boards(tournament)
    play_out(first.table.game.pk)
    services.board_take_result(board_id=first.pk)
    total = coins.ledger_total()

    services.tournament_cancel(tournament_id=tournament.pk, reason="server move")

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert tournament.cancel_reason == "server move"
    assert Game.objects.get(pk=second.table.game.pk).status == Game.Status.ABORTED
    assert wallets(users) == {user.pk: 1000 for user in users}
    assert pool(tournament) == 0
    assert coins.ledger_total() == total
    # The called-off game's end does not move the cancelled tournament; its
    # round is over, and nobody is sent to a table any more.
    assert services.board_take_result(board_id=second.pk) is False
    (round_,) = Round.objects.filter(tournament=tournament)
    assert round_.status == Round.Status.FINISHED
    assert not Board.objects.filter(round=round_, finished=False).exists()
    assert seat_of_user(tournament, users[0]) is None
    assert all(row.points == 0 or row.games for row in standings(tournament))


def test_cancelling_before_the_start_refunds_and_a_finished_one_cannot_be():
    users = players(2)
    tournament = make_tournament(rounds=1, entry_fee=100)
    register_all(tournament, users)
    services.tournament_cancel(tournament_id=tournament.pk)
    assert wallets(users) == {user.pk: 1000 for user in users}
    assert start_now(tournament) is None

    with pytest.raises(ApplicationError):
        services.tournament_cancel(tournament_id=tournament.pk)

    other = make_tournament(rounds=1)
    register_all(other, players(2))
    start_now(other)
    play_to_the_end(other)
    with pytest.raises(ApplicationError) as caught:
        services.tournament_cancel(tournament_id=other.pk)
    assert caught.value.code == "over"


# -- recurring tournaments -----------------------------------------------------


def make_schedule(**fields) -> Schedule:
    settings = {
        "name": "Evening Japanese",
        "category": "japanese",
        "format": "swiss",
        "rounds": 4,
        "entry_fee": 20,
        "time_of_day": time(20, 0),
        "weekdays": "0123456",
        "create_ahead_hours": 24,
        **fields,
    }
    schedule = Schedule(**settings)
    schedule.full_clean()
    schedule.save()
    return schedule


def test_a_daily_schedule_creates_each_tournament_once():
    schedule = make_schedule()
    now = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)

    created = services.tournament_create_scheduled(now=now)
    again = services.tournament_create_scheduled(now=now + timedelta(minutes=5))

    assert [t.starts_at for t in created] == [datetime(2026, 12, 1, 20, 0, tzinfo=UTC)]
    assert again == []
    tournament = created[0]
    assert (tournament.name, tournament.rounds, tournament.entry_fee) == (
        "Evening Japanese",
        4,
        20,
    )
    assert tournament.schedule == schedule
    # The next day's opens once it is within the 24 hours.
    later = services.tournament_create_scheduled(now=now + timedelta(hours=2))
    assert [t.starts_at.day for t in later] == [2]


def test_a_weekly_schedule_skips_the_other_days():
    make_schedule(weekdays="5", create_ahead_hours=24 * 7)  # Saturdays
    monday = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

    created = services.tournament_create_scheduled(now=monday)

    assert [t.starts_at.date().isoformat() for t in created] == ["2026-12-05"]


def test_an_inactive_schedule_creates_nothing():
    make_schedule(active=False)
    assert services.tournament_create_scheduled() == []
