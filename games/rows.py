"""The rows every move reads and writes, in plain SQL.

A move runs the same handful of statements: lock the game, read its seats,
look up the action id, append the event, save the game, keep the answer.
Built by the ORM, each of them costs about a millisecond of Python on a
small server, several times what the database needs to run it; written out
once here they cost a fraction of that, and the server's capacity for moves
grows accordingly. Values go through the backend's own adapters. Everything
else uses the ORM, and the models stay the one description of the tables.

A move also makes few trips to the database: its three reads go in one
trip (``lock_for_move``), and the rows its steps append wait on the game
(``insert_event``, ``insert_receipt``) until ``save_step`` sends them in one
trip with the game itself.
"""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.db import connection

from accounts.models import Profile
from games.models import ActionReceipt, Game, GameEvent, Seat, Table

GAME = Game._meta.db_table
TABLE = Table._meta.db_table
SEAT = Seat._meta.db_table
EVENT = GameEvent._meta.db_table
RECEIPT = ActionReceipt._meta.db_table
PROFILE = Profile._meta.db_table

# Every column of the game; of the table, the settings a move uses (the
# instance built from them loads any other field on first use, as a
# deferred field does).
GAME_FIELDS = (
    "id",
    "table_id",
    "status",
    "first_dealer",
    "state",
    "version",
    "deadline",
    "cards_played",
    "commitments",
    "started_at",
    "finished_at",
    "result",
    "annulled_at",
    "annulled_by_id",
)
GAME_JSON = {"state", "commitments", "result"}
TABLE_FIELDS = ("id", "turn_seconds", "forfeit_after_timeouts", "managed")
SEAT_FIELDS = (
    "id",
    "table_id",
    "number",
    "user_id",
    "bot",
    "left",
    "connections",
    "disconnect_token",
    "disconnected_at",
)


def lock_game(game_id: int) -> Game | None:
    """The game, its row locked until the transaction ends, with the table
    settings a move uses (``game.table``); None when there is no such game.
    """
    with connection.cursor() as cursor:
        cursor.execute(*_lock_statement(game_id))
        return _game(cursor.fetchone())


def lock_for_move(
    game_id: int, client_id: str
) -> tuple[Game | None, list[Seat], dict[int, dict]]:
    """What a player's action reads, under the game's lock: the game (as
    ``lock_game``), its seats (as ``seats_of``), and the answers already
    given to this action id, by seat number."""
    statements = [
        _lock_statement(game_id),
        # The statements run in order: these two read after the lock is held.
        _seats_statement(f"(SELECT table_id FROM {GAME} WHERE id = %s)", game_id),
        (
            f"SELECT seat, answer FROM {RECEIPT} WHERE game_id = %s AND client_id = %s",
            [game_id, client_id],
        ),
    ]
    game_row, seat_rows, receipt_rows = _read_all(statements)
    game = _game(game_row[0] if game_row else None)
    answers = {seat: _json(answer) for seat, answer in receipt_rows}
    return game, [_seat(row) for row in seat_rows], answers


def _lock_statement(game_id: int) -> tuple[str, list]:
    columns = ", ".join(f"g.{field}" for field in GAME_FIELDS)
    return (
        f"SELECT {columns}, t.turn_seconds, t.forfeit_after_timeouts, t.managed"
        f" FROM {GAME} g JOIN {TABLE} t ON t.id = g.table_id"
        f" WHERE g.id = %s FOR UPDATE OF g",
        [game_id],
    )


def _game(row) -> Game | None:
    if row is None:
        return None
    values = [
        _json(value) if field in GAME_JSON else value
        for field, value in zip(GAME_FIELDS, row, strict=False)
    ]
    game = Game.from_db(connection.alias, GAME_FIELDS, values)
    turn_seconds, forfeit_after_timeouts, managed = row[len(GAME_FIELDS) :]
    game.table = Table.from_db(
        connection.alias,
        TABLE_FIELDS,
        [game.table_id, turn_seconds, forfeit_after_timeouts, managed],
    )
    return game


def seats_of(table_id: int) -> list[Seat]:
    """The table's seats in seat order, each with the name shown for it
    (``shown_name``) read in the same query."""
    with connection.cursor() as cursor:
        cursor.execute(*_seats_statement("%s", table_id))
        return [_seat(row) for row in cursor.fetchall()]


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


def insert_receipt(game: Game, seat: int, client_id: str, answer, now) -> None:
    """Keep the answer to an action id; written by ``save_step``."""
    _pending(game).append(
        _insert(
            RECEIPT,
            {
                "game_id": game.pk,
                "seat": seat,
                "client_id": client_id,
                "answer": _json_value(answer),
                "created_at": _datetime(now),
            },
        )
    )


def insert_event(
    game: Game,
    *,
    version: int,
    kind: str,
    public: list,
    now,
    seat: int | None = None,
    cause: str = GameEvent.Cause.PLAYER,
    action=None,
) -> None:
    """Append an event to the game; written by ``save_step`` (or
    ``write_pending``)."""
    _pending(game).append(
        _insert(
            EVENT,
            {
                "game_id": game.pk,
                "version": version,
                "kind": str(kind),
                "seat": seat,
                "cause": str(cause),
                "action": None if action is None else _json_value(action),
                "public": _json_value(public),
                "created_at": _datetime(now),
            },
        )
    )


def save_step(game: Game) -> None:
    """Write the rows waiting on the game, and the columns a step changes
    (the state, its version, the deadline, the counters, and the result once
    it is over)."""
    values = {
        "state": _json_value(game.state),
        "version": game.version,
        "status": str(game.status),
        "deadline": _datetime(game.deadline),
        "cards_played": game.cards_played,
        "commitments": _json_value(game.commitments),
    }
    if game.status != Game.Status.PLAYING:
        values["finished_at"] = _datetime(game.finished_at)
        values["result"] = _json_value(game.result)
    assignments = ", ".join(f"{column} = %s" for column in values)
    _pending(game).append(
        (f"UPDATE {GAME} SET {assignments} WHERE id = %s", [*values.values(), game.pk])
    )
    write_pending(game)


def write_pending(game: Game) -> None:
    """Write the rows waiting on the game."""
    statements, game.pending_rows = _pending(game), []
    with connection.cursor() as cursor:
        if statements:
            cursor.execute(*_one_query(statements))


def _pending(game: Game) -> list:
    if not hasattr(game, "pending_rows"):
        game.pending_rows = []
    return game.pending_rows


def _read_all(statements: list) -> list[list]:
    """The rows of each statement, run in order, in one trip."""
    results = []
    with connection.cursor() as cursor:
        cursor.execute(*_one_query(statements))
        results.append(cursor.fetchall())
        for _ in range(len(statements) - 1):
            cursor.nextset()
            results.append(cursor.fetchall())
    return results


def _one_query(statements: list) -> tuple[str, list]:
    """The statements as one query. Django's psycopg cursors bind values on
    the client (the default, kept here), so a query may hold several."""
    sql = ";\n".join(sql for sql, _ in statements)
    params = [value for _, values in statements for value in values]
    return sql, params


def _insert(table: str, values: dict) -> tuple[str, list]:
    columns = ", ".join(values)
    marks = ", ".join(["%s"] * len(values))
    return f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(values.values())


def _json(value):
    """A JSON column as read: text on both backends (Django's PostgreSQL
    backend leaves jsonb undecoded for JSONField to decode)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def _json_value(value):
    return connection.ops.adapt_json_value(value, None)


def _datetime(value):
    return connection.ops.adapt_datetimefield_value(value)
