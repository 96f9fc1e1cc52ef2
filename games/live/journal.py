"""Making steps durable, and reading a game back.

A step is written as one query of a few statements: its event rows, the
deal record when it deals, and the game row's counters (version, deadline,
cards played; the state snapshot when the step saves it). PostgreSQL runs
the statements of one simple query as one transaction, so an ordinary move
costs one round trip and one commit. The owner sends it from the event loop
on an async connection (``Journal``); code outside a server (the demo
seeder, operator actions, scripted games in tests) sends the very same
statements through Django's connection (``write_sync``).

The unique ``(game, version)`` of the events fences the writers: a step
written on a version another process has already written fails as a whole
with ``Fenced``, and its writer does not own the game.

A step that ends the game is written with its settlement (coins, ratings)
in one Django transaction (``finish_sync``), so both happen exactly once.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import operator
from collections import deque
from datetime import datetime
from functools import reduce

import orjson
import psycopg
from django.db import IntegrityError, connection, connections, transaction
from django.db.models import Q
from psycopg.types.json import Jsonb

from games import rows, signals
from games.live.game import (
    FINISHED,
    LiveGame,
    SeatInfo,
    Step,
    Timing,
    timeouts_after,
)
from games.models import DealRecord, Game, GameEvent, Seat, Table, replay_events
from joker.actions import action_from_json
from joker.codec import state_from_json, state_to_json

logger = logging.getLogger(__name__)

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
    "created_at",
)


def jsonb(value) -> Jsonb:
    """A value for a jsonb column, written by orjson (as ``json`` would)."""
    return Jsonb(value, dumps=_dumps)


def _dumps(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


class Fenced(Exception):
    """A step's version was already written: another process owns the game."""


class Gone(Exception):
    """The game is no longer in the database (deleted with its table)."""


# The statements of a step


def statements(live: LiveGame, step: Step) -> list[tuple[str, list]]:
    """What writing ``step`` to ``live`` (as it was before it) runs, in order."""
    out = []
    for event in step.events:
        values = [_value(column, event[column]) for column in EVENT_COLUMNS]
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
    cards = sum(
        1 for e in step.events if e["kind"] == "action" and "card" in e["action"]
    )
    game = {
        "version": step.version,
        "deadline": step.deadline,
        "cards_played": live.cards_played + cards,
        "timeouts_in_a_row": jsonb(timeouts_after(live.timeouts, step.events)),
    }
    if step.deal is not None:
        game["commitments"] = jsonb([*live.commitments, step.deal["commitment"]])
    if step.save_state:
        game["state"] = jsonb(state_to_json(step.state))
        game["state_version"] = step.version
    if step.ends_game:
        game["status"] = step.status
        game["finished_at"] = step.events[-1]["created_at"]
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
    if step.ends_game:
        out.append(
            (
                f"UPDATE {TABLE} SET status = %s WHERE id = %s",
                [step.status, live.table_id],
            )
        )
    return out


def result_of(state) -> dict:
    return {
        "totals": list(state.totals),
        "places": list(state.places),
        "winners": state.winners,
        "left": list(state.left),
    }


def _value(column: str, value):
    if column in ("action", "public"):
        return None if value is None else jsonb(value)
    return value


def _insert(table: str, columns, values) -> tuple[str, list]:
    return _insert_sql(table, tuple(columns)), list(values)


@functools.cache
def _insert_sql(table: str, columns: tuple[str, ...]) -> str:
    """The same few statements over and over: each text is built once."""
    marks = ", ".join(["%s"] * len(columns))
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"


def _one_query(parts: list[tuple[str, list]]) -> tuple[str, list]:
    sql = ";\n".join(sql for sql, _ in parts)
    return sql, [value for _, values in parts for value in values]


# Writing on the event loop


class Journal:
    """The async connections of one event loop, for the owners' writes.

    Writes are grouped, never delayed: a write goes to the first free
    writer; writes that arrive while every writer is busy wait, and the next
    writer to be free sends all that wait as one query, one transaction
    (group commit). A write never waits for one that came after it, and each
    owner is answered once its own write is durable. Should a group fail on
    one game's write (a fenced version, a deleted game), its writes are sent
    again one by one, so that only that game hears of it.
    """

    # Writes sent together at most.
    GROUP_MAX = 64

    def __init__(self, size: int = 4):
        from psycopg_pool import AsyncConnectionPool

        self.size = size
        self.pool = AsyncConnectionPool(
            conninfo(),
            min_size=1,
            max_size=size,
            kwargs={"autocommit": True, "cursor_factory": psycopg.AsyncClientCursor},
            open=False,
        )
        self.waiting: deque[tuple[str, list, asyncio.Future]] = deque()
        # Steps written, and the queries that wrote them.
        self.written = self.queries = 0
        self.ready = asyncio.Event()
        self.writers: list[asyncio.Task] = []

    async def open(self) -> None:
        await self.pool.open(wait=True)
        loop = asyncio.get_running_loop()
        self.writers = [loop.create_task(self._writer()) for _ in range(self.size)]

    async def close(self) -> None:
        for writer in self.writers:
            writer.cancel()
        await asyncio.gather(*self.writers, return_exceptions=True)
        await self.pool.close()

    async def write(self, live: LiveGame, step: Step) -> None:
        """Write an ordinary step (not the game's last): at most one round
        trip, shared with the steps of other games waiting beside it."""
        await self._queue(*_one_query(statements(live, step)))

    async def record_presence(self, live: LiveGame) -> None:
        """Write the game's presence (``LiveGame.presence``) as it is now,
        in the same groups as the steps. The caller sends one at a time per
        game: each write is the whole of it, so the last one wins."""
        await self._queue(
            f"UPDATE {GAME} SET presence = %s WHERE id = %s",
            [jsonb(presence_json(live.presence)), live.game_id],
        )

    async def _queue(self, sql: str, params: list) -> None:
        done = asyncio.get_running_loop().create_future()
        self.waiting.append((sql, params, done))
        self.ready.set()
        await done

    async def _writer(self) -> None:
        while True:
            while not self.waiting:
                self.ready.clear()
                await self.ready.wait()
            count = min(len(self.waiting), self.GROUP_MAX)
            group = [self.waiting.popleft() for _ in range(count)]
            await self._send(group)

    async def _send(self, group: list) -> None:
        try:
            async with self.pool.connection() as conn:
                cursor = conn.cursor()
                # Each step bound on its own: the same few statement shapes,
                # which psycopg parses once and keeps; the group's text is
                # new every time.
                sql = ";\n".join(
                    cursor.mogrify(sql, params) for sql, params, _ in group
                )
                self.queries += 1
                await cursor.execute(sql)
        except (
            psycopg.errors.UniqueViolation,
            psycopg.errors.ForeignKeyViolation,
        ) as error:
            if len(group) > 1:
                for one in group:
                    await self._send([one])
                return
            _settle(group, _refusal(error))
        except Exception as error:  # the database away: every owner is told
            _settle(group, error)
        else:
            self.written += len(group)
            _settle(group, None)

    async def set_clocks(self, live: LiveGame) -> None:
        """Write the deadline and the graces, moved on by an outage."""
        async with self.pool.connection() as conn:
            await conn.execute(
                f"UPDATE {GAME} SET deadline = %s, presence = %s"
                " WHERE id = %s AND version = %s",
                [
                    live.deadline,
                    jsonb(presence_json(live.presence)),
                    live.game_id,
                    live.version,
                ],
            )


def presence_json(presence: dict) -> dict:
    return {
        str(seat): None if due is None else due.isoformat()
        for seat, due in presence.items()
    }


def presence_from_json(stored: dict) -> dict:
    return {
        int(seat): None if due is None else datetime.fromisoformat(due)
        for seat, due in (stored or {}).items()
    }


def _refusal(error: Exception) -> Exception:
    """What an owner is told of its write refused by a constraint."""
    if isinstance(error, psycopg.errors.UniqueViolation):
        return Fenced(str(error))
    return Gone(str(error))


def _settle(group: list, error: Exception | None) -> None:
    for _, _, done in group:
        if done.done():  # its owner stopped waiting (a server shutting down)
            continue
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)


def conninfo() -> str:
    """The default database's connection string, as Django connects to it
    (the test database in tests)."""
    params = connections["default"].get_connection_params()
    # Django's own cursor class and adapters are for its sync connection.
    for key in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(key, None)
    return psycopg.conninfo.make_conninfo(**params)


# Writing through Django (outside a server, and every game's last step)


def write_sync(live: LiveGame, step: Step) -> None:
    """Write ``step`` on Django's connection (inside the caller's
    transaction, if any). A game's last step goes through ``finish_sync``."""
    sql, params = _one_query(statements(live, step))
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
    except IntegrityError as error:
        raise Fenced(str(error)) from error


def finish_sync(live: LiveGame, step: Step) -> None:
    """Write the game's last step with what its end settles, in one
    transaction: the stakes paid out (or refunded) and the ratings."""
    from games import stakes

    with transaction.atomic():
        write_sync(live, step)
        game = Game.objects.select_related("table").get(pk=live.game_id)
        if step.status == FINISHED:
            stakes.settle(game)
        else:
            stakes.refund(game)
        game_id, table_id = live.game_id, live.table_id
        transaction.on_commit(
            lambda: signals.game_ended.send(
                sender=Game, game_id=game_id, table_id=table_id
            )
        )


# Reading a game back


def load(game_id: int, *, client_id: str | None = None) -> LiveGame | None:
    """The game as its owner holds it, read from the database; None when
    there is no such game. The answers to action ids are read for every id,
    or for ``client_id`` alone when given."""
    return load_many([game_id], client_id=client_id).get(game_id)


def load_many(
    game_ids: list[int], *, client_id: str | None = None
) -> dict[int, LiveGame]:
    """``load`` for many games at once (a takeover of a dead server's games):
    one query per kind of row, whatever the number of games. Games that do
    not exist are left out."""
    from django.conf import settings

    games = list(Game.objects.select_related("table").filter(pk__in=game_ids))
    if not games:
        return {}
    ids = [game.pk for game in games]
    seats = rows.seats_of_tables([game.table_id for game in games])
    # Every deal saves the state, so the events after the snapshot hold the
    # whole of the deal being played.
    # One range of the (game, version) index per game.
    after_snapshots = reduce(
        operator.or_,
        (Q(game_id=game.pk, version__gt=game.state_version) for game in games),
    )
    later: dict[int, list] = {game_id: [] for game_id in ids}
    for game_id, kind, action in (
        GameEvent.objects.filter(after_snapshots)
        .order_by("game_id", "version")
        .values_list("game_id", "kind", "action")
    ):
        later[game_id].append((kind, action))
    answers: dict[int, dict] = {game_id: {} for game_id in ids}
    answered = GameEvent.objects.filter(game_id__in=ids).exclude(client_id="")
    if client_id is not None:
        answered = answered.filter(client_id=client_id)
    for game_id, seat, client, version in answered.values_list(
        "game_id", "seat", "client_id", "version"
    ):
        answers[game_id][(seat, client)] = version
    loaded = {}
    for game in games:
        table = game.table
        events = later[game.pk]
        loaded[game.pk] = LiveGame(
            game_id=game.pk,
            table_id=table.pk,
            state=replay_events(game.pk, state_from_json(game.state), events),
            version=game.version,
            state_version=game.state_version,
            deadline=game.deadline,
            seats=[
                SeatInfo(s.number, s.user_id, s.bot, s.left, s.display_name)
                for s in seats[table.pk]
            ],
            timing=Timing(
                turn_seconds=table.turn_seconds,
                bot_seconds=settings.PULKA_BOT_MOVE_SECONDS,
                forfeit_after_timeouts=table.forfeit_after_timeouts,
            ),
            managed=table.managed,
            at_stake=table.ranked or table.stake > 0,
            status=game.status,
            cards_played=game.cards_played,
            commitments=list(game.commitments),
            answers=answers[game.pk],
            # Empty for a game whose seats have not moved yet.
            timeouts=game.timeouts_in_a_row or [0] * len(seats[table.pk]),
            deal_actions=_deal_actions(events),
            presence=presence_from_json(game.presence),
        )
    return loaded


def _deal_actions(events: list) -> list:
    """The actions of the deal being played, from the events after the
    snapshot (which may begin with the end of the deal before)."""
    deals = [i for i, (kind, _) in enumerate(events) if kind == GameEvent.Kind.DEAL]
    start = deals[-1] + 1 if deals else 0
    return [
        action_from_json(action)
        for kind, action in events[start:]
        if kind == GameEvent.Kind.ACTION
    ]
