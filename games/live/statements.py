"""The SQL that makes a step durable: its event rows, the deal record when
it deals, and the game row's counters (version, deadline, cards played; the
state snapshot when the step saves it), built once per step and sent as one
query (``journal``). Also the stored form of a game's presence."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import datetime
from typing import Any

import orjson
from psycopg.types.json import Jsonb

from games.live.game import LiveGame
from games.live.steps import FINISHED, Step
from games.models import DealRecord, Game, GameEvent, Seat, Table
from joker.codec import state_to_json
from joker.state import State

GAME = Game._meta.db_table
TABLE = Table._meta.db_table
SEAT = Seat._meta.db_table
EVENT = GameEvent._meta.db_table
DEAL_RECORD = DealRecord._meta.db_table
EVENT_COLUMNS = (
    "version",
    "kind",
    "seat",
    "cause",
    "action",
    "public",
    "client_id",
    "thinking_ms",
    "budget_ms",
    "cut_short",
    "created_at",
)


def jsonb(value: object) -> Jsonb:
    """A value for a jsonb column, written by orjson (as ``json`` would)."""
    return Jsonb(value, dumps=_dumps)


def _dumps(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def statements(live: LiveGame, step: Step) -> list[tuple[str, list[Any]]]:
    """What writing ``step`` to ``live`` (as it was before it) runs, in order:
    the game's counters as the step leaves them (``Step.after``)."""
    out = []
    for event in step.events:
        values = [_value(column, getattr(event, column)) for column in EVENT_COLUMNS]
        out.append(_insert(EVENT, ("game_id", *EVENT_COLUMNS), [live.game_id, *values]))
    if step.deal is not None:
        deal = step.deal
        out.append(
            _insert(
                DEAL_RECORD,
                (
                    "game_id",
                    "index",
                    "hands",
                    "turned",
                    "columns",
                    "salt",
                    "commitment",
                ),
                [
                    live.game_id,
                    deal["index"],
                    jsonb(deal["hands"]),
                    deal["turned"],
                    jsonb(deal["columns"]),
                    deal["salt"],
                    deal["commitment"],
                ],
            )
        )
    after = step.after
    game: dict[str, Any] = {
        "version": step.version,
        "deadline": step.deadline,
        "cards_played": after.cards_played,
        "timeouts_in_a_row": jsonb(after.timeouts),
    }
    if step.deal is not None:
        game["commitments"] = jsonb(after.commitments)
    if step.save_state:
        game["state"] = jsonb(state_to_json(step.state))
        game["state_version"] = step.version
    if step.ends_game:
        game["status"] = step.status
        game["finished_at"] = step.events[-1].created_at
        if step.status == FINISHED:
            game["result"] = jsonb(result_of(step.state))
    assignments = ", ".join(f"{column} = %s" for column in game)
    out.append(
        (
            f"UPDATE {GAME} SET {assignments} WHERE id = %s",
            [*game.values(), live.game_id],
        )
    )
    if step.seat_left is not None:
        out.append(
            (
                f'UPDATE {SEAT} SET "left" = true WHERE table_id = %s AND number = %s',
                [live.table_id, step.seat_left],
            )
        )
    if step.seat_back is not None:
        out.append(
            (
                f'UPDATE {SEAT} SET "left" = false WHERE table_id = %s AND number = %s',
                [live.table_id, step.seat_back],
            )
        )
    if step.ends_game:
        out.append(
            (
                f"UPDATE {TABLE} SET status = %s WHERE id = %s",
                [step.status, live.table_id],
            )
        )
    return out


def result_of(state: State) -> dict[str, Any]:
    return {
        "totals": list(state.totals),
        "places": list(state.places),
        "winners": state.winners,
        "left": list(state.left),
    }


def _value(column: str, value: object) -> object:
    if column in ("action", "public"):
        return None if value is None else jsonb(value)
    return value


def _insert(
    table: str, columns: Iterable[str], values: Iterable[object]
) -> tuple[str, list[Any]]:
    return _insert_sql(table, tuple(columns)), list(values)


@functools.cache
def _insert_sql(table: str, columns: tuple[str, ...]) -> str:
    """The same few statements over and over: each text is built once."""
    marks = ", ".join(["%s"] * len(columns))
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"


def one_query(parts: list[tuple[str, list[Any]]]) -> tuple[str, list[Any]]:
    sql = ";\n".join(sql for sql, _ in parts)
    return sql, [value for _, values in parts for value in values]


def presence_json(presence: dict[int, datetime | None]) -> dict[str, str | None]:
    return {
        str(seat): None if due is None else due.isoformat()
        for seat, due in presence.items()
    }


def presence_from_json(
    stored: dict[str, str | None] | None,
) -> dict[int, datetime | None]:
    return {
        int(seat): None if due is None else datetime.fromisoformat(due)
        for seat, due in (stored or {}).items()
    }
