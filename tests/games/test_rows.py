"""The move's rows in plain SQL read and write what the ORM reads and writes.

Every move in the other tests already goes through ``games.rows``; these
compare it field by field with the ORM.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.services import profile_update
from games import rows, services
from games.models import ActionReceipt, Game, GameEvent, Seat
from tests.games.helpers import (
    first_legal,
    is_over,
    play_until,
    snapshot,
    start_game,
    start_table,
)

pytestmark = pytest.mark.django_db


def test_the_locked_game_has_every_column_the_orm_reads(japanese):
    with transaction.atomic():
        game = rows.lock_game(japanese.pk)
    expected = Game.objects.select_related("table").get(pk=japanese.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(game, field.attname) == getattr(expected, field.attname), (
            field.name
        )
    assert game.deadline.tzinfo is not None
    for name in rows.TABLE_FIELDS:
        assert getattr(game.table, name) == getattr(expected.table, name), name
    # Any other table setting is read when first asked for.
    assert game.table.profile == expected.table.profile == "japanese"


def test_there_is_no_game_to_lock_under_an_unknown_id(db):
    with transaction.atomic():
        assert rows.lock_game(10**9) is None


def test_a_finished_game_reads_back_its_result_and_its_end(japanese):
    game = play_until(japanese, is_over)
    with transaction.atomic():
        locked = rows.lock_game(game.pk)
    assert locked.status == Game.Status.FINISHED
    assert locked.result == game.result and locked.result["winners"]
    assert locked.finished_at == game.finished_at and locked.deadline is None
    assert locked.commitments == list(
        game.deal_records.order_by("index").values_list("commitment", flat=True)
    )


def test_seats_come_in_order_with_the_names_shown_at_the_table(db):
    table, (host, guest) = start_table("georgian-club", people=2)
    profile_update(user=guest, display_name="Nino", language="")
    game = Game.objects.get(table=table)

    seats = rows.seats_of(game.table_id)

    assert [seat.number for seat in seats] == [0, 1, 2, 3]
    assert [seat.display_name for seat in seats] == [
        host.username,
        "Nino",
        *(seat.display_name for seat in Seat.objects.filter(table=table)[2:]),
    ]
    for seat, expected in zip(
        seats, Seat.objects.filter(table=table).order_by("number"), strict=True
    ):
        for field in Seat._meta.concrete_fields:
            assert getattr(seat, field.attname) == getattr(expected, field.attname)
        assert seat.display_name == expected.display_name


def test_an_event_a_step_and_a_receipt_written_in_sql_read_back_through_the_orm(
    japanese,
):
    now = timezone.now()
    with transaction.atomic():
        game = rows.lock_game(japanese.pk)
        game.version += 1
        rows.insert_event(
            game,
            version=game.version,
            kind=GameEvent.Kind.ACTION,
            seat=1,
            cause=GameEvent.Cause.TIMEOUT,
            action={"seat": 1, "bid": 0},
            public=[{"type": "bid", "seat": 1, "bid": 0}],
            now=now,
        )
        game.deadline = now + timedelta(seconds=30)
        game.cards_played = 3
        rows.insert_receipt(game, 1, "abc", {"version": game.version}, now)
        rows.save_step(game)

    event = GameEvent.objects.get(game=japanese, version=game.version)
    assert (event.kind, event.seat, event.cause) == ("action", 1, "timeout")
    assert event.action == {"seat": 1, "bid": 0}
    assert event.public == [{"type": "bid", "seat": 1, "bid": 0}]
    assert event.created_at == now
    saved = Game.objects.get(pk=japanese.pk)
    assert saved.version == game.version and saved.cards_played == 3
    assert saved.deadline == game.deadline
    assert saved.state == japanese.state
    receipt = ActionReceipt.objects.get(game=japanese, seat=1, client_id="abc")
    assert receipt.answer == {"version": game.version}
    with transaction.atomic():
        locked, seats, answers = rows.lock_for_move(game.pk, "abc")
    assert locked.version == game.version and len(seats) == 2
    assert answers == {1: {"version": game.version}}
    assert rows.lock_for_move(game.pk, "abd")[2] == {}


def test_a_move_makes_the_same_few_trips_to_the_database_whatever_the_game(
    django_capture_on_commit_callbacks,
):
    game = start_game("georgian-club", people=4)
    seat = Seat.objects.get(table=game.table, number=game.engine_state().turn)
    user = seat.user
    action = first_legal(snapshot(game, seat.number)["view"])
    with CaptureQueriesContext(connection) as queries:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            services.game_act(
                game_id=game.pk,
                user=user,
                action=action,
                expected_version=game.version,
                client_id="one",
            )
    assert callbacks, "the broadcast and the timer were arranged"
    trips = [
        query["sql"] for query in queries if "SAVEPOINT" not in query["sql"].upper()
    ]
    # The reads (lock, seats, receipt), then the writes (event, receipt,
    # game): one trip each. The broadcast after commit reads nothing more.
    assert len(trips) == 2
    assert trips[0].count("SELECT ") == 4 and "FOR UPDATE" in trips[0]
    assert trips[1].count("INSERT INTO") == 2 and "UPDATE" in trips[1]
