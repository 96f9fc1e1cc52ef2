"""The seats of a table with their players' names, in one plain query.

Every load of a live game reads them; written out once here, the read
costs a fraction of what the ORM's joins would in Python.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection

from accounts.models import Profile
from games.models import Seat

SEAT = Seat._meta.db_table
PROFILE = Profile._meta.db_table
SEAT_FIELDS = ("id", "table_id", "number", "user_id", "bot", "left")


def seats_of(table_id: int) -> list[Seat]:
    """The table's seats in seat order, each with the name shown for it
    (``shown_name``) read in the same query."""
    with connection.cursor() as cursor:
        cursor.execute(*_seats_statement("%s", table_id))
        return [_seat(row) for row in cursor.fetchall()]


def seats_of_tables(table_ids: list[int]) -> dict[int, list[Seat]]:
    """``seats_of`` for many tables in one query, by table."""
    seats: dict[int, list[Seat]] = {table_id: [] for table_id in table_ids}
    with connection.cursor() as cursor:
        cursor.execute(*_seats_statement("ANY(%s)", list(table_ids)))
        for row in cursor.fetchall():
            seat = _seat(row)
            seats[seat.table_id].append(seat)
    return seats


def _seats_statement(table_id_sql: str, value) -> tuple[str, list]:
    user_table = get_user_model()._meta.db_table
    columns = ", ".join(f's."{field}"' for field in SEAT_FIELDS)
    return (
        f"SELECT {columns}, u.username, p.display_name"
        f" FROM {SEAT} s"
        f" LEFT JOIN {user_table} u ON u.id = s.user_id"
        f" LEFT JOIN {PROFILE} p ON p.user_id = s.user_id"
        f" WHERE s.table_id = {table_id_sql} ORDER BY s.number",
        [value],
    )


def _seat(row) -> Seat:
    values = list(row[: len(SEAT_FIELDS)])
    seat = Seat.from_db(connection.alias, SEAT_FIELDS, values)
    username, display_name = row[len(SEAT_FIELDS) :]
    seat.shown_name = display_name or username
    return seat
