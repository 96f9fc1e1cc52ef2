"""Making steps durable.

A step is written as one query of a few statements (``statements``).
PostgreSQL runs the statements of one simple query as one transaction, so
an ordinary move costs one round trip and one commit. The owner sends it
from the event loop on an async connection (``Journal``); an owner run
outside a server (``local``: the demo seeder, a game called off, scripted
games in tests) and operator actions send the very same statements through
Django's connection (``write_sync``).

The unique ``(game, version)`` of the events fences the writers: a step
written on a version another process has already written fails as a whole
with ``Fenced``, and its writer does not own the game.

A step that ends the game is written in one Django transaction with the
game's end published (``finish_sync``): what its subscribers settle there
(coins, ratings) commits with the step, so both happen exactly once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar, cast

import psycopg
from django.conf import settings
from django.db import IntegrityError, connection, connections, transaction

from common.database_threads import off_the_loop
from games.ended import GameEnded, game_ended
from games.live.game import LiveGame
from games.live.statements import (
    GAME,
    jsonb,
    one_query,
    presence_json,
    statements,
)
from games.live.steps import FINISHED, Step
from games.models import Game
from games.selectors import game_ending

logger = logging.getLogger(__name__)


R = TypeVar("R")


class Fenced(Exception):
    """A step's version was already written: another process owns the game."""


class Gone(Exception):
    """The game is no longer in the database (deleted with its table)."""


# Writing on the event loop

# One write waiting for a writer: its statement, parameters, and the
# future its owner awaits.
Write = tuple[str, list[Any], "asyncio.Future[None]"]


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

    def __init__(self, size: int | None = None):
        from psycopg_pool import AsyncConnectionPool

        self.size = size or settings.PULKA_JOURNAL_CONNECTIONS
        self.pool = AsyncConnectionPool(
            conninfo(),
            min_size=1,
            max_size=self.size,
            # Client-side binding, nothing prepared (prepare_threshold None,
            # as Django's own): the statements work through PgBouncer in
            # transaction mode, which lends each transaction any server
            # connection (docs/deployment.md, "PostgreSQL").
            kwargs={
                "autocommit": True,
                "cursor_factory": psycopg.AsyncClientCursor,
                "prepare_threshold": None,
            },
            # A write waits this long at most for a connection (PostgreSQL
            # refusing new ones, say), then its owner hears "unavailable"
            # and tells the mover (games.live.owner), as the pages say 503.
            timeout=settings.PULKA_DB_POOL_TIMEOUT,
            open=False,
        )
        self.waiting: deque[Write] = deque()
        # Steps written, and the queries that wrote them.
        self.written = self.queries = 0
        self.ready = asyncio.Event()
        self.writers: list[asyncio.Task[None]] = []

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
        await self.queue(*one_query(statements(live, step)))

    async def finish(self, live: LiveGame, step: Step) -> dict[str, Any]:
        """Write the game's last step with what its end settles
        (``finish_sync``): through Django, on a thread of its own. Returns
        what the end's snapshot adds."""
        return await off_the_loop(finish_sync)(live, step)

    async def read(self, query: Callable[..., R], *args: Any) -> R:
        """``query(*args)``, a function reading through Django, on a
        thread of its own (the owner's loop must not wait on it)."""
        return await off_the_loop(query)(*args)

    async def record_presence(self, live: LiveGame) -> None:
        """Write the game's presence (``LiveGame.presence``) as it is now,
        in the same groups as the steps. The caller sends one at a time per
        game: each write is the whole of it, so the last one wins."""
        await self.queue(
            f"UPDATE {GAME} SET presence = %s WHERE id = %s",
            [jsonb(presence_json(live.presence)), live.game_id],
        )

    async def queue(self, sql: str, params: list[Any]) -> None:
        """Write one statement in the same groups as the steps, and return
        once it is durable (the steps' writes and the benchmarks' echo)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
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

    async def _send(self, group: list[Write]) -> None:
        try:
            async with self.pool.connection() as conn:
                # A client-side cursor: the pool's ``cursor_factory``.
                cursor = cast(psycopg.AsyncClientCursor[Any], conn.cursor())
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


def _refusal(error: Exception) -> Exception:
    """What an owner is told of its write refused by a constraint."""
    if isinstance(error, psycopg.errors.UniqueViolation):
        return Fenced(str(error))
    return Gone(str(error))


def _settle(group: list[Write], error: Exception | None) -> None:
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
    sql, params = one_query(statements(live, step))
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
    except IntegrityError as error:
        raise Fenced(str(error)) from error


def finish_sync(live: LiveGame, step: Step) -> dict[str, Any]:
    """Write the game's last step and publish the game's end
    (``games.ended``) in one transaction: what its subscribers settle in
    the transaction (the stakes, the ratings) commits with the step, so it
    happens exactly once. Returns what the game's last snapshot adds
    (``selectors.game_ending``), read in that transaction: the deals
    revealed, and the coins won as the ledger now holds them."""
    with transaction.atomic():
        write_sync(live, step)
        game = Game.objects.select_related("table").filter(pk=live.game_id).first()
        if game is None:
            # Deleted meanwhile (the foreign keys are checked only at the
            # commit, so the write itself went through): nothing to finish.
            raise Gone(f"game {live.game_id} no longer exists")
        game_ended.publish(
            GameEnded(
                game_id=live.game_id,
                table_id=live.table_id,
                finished=step.status == FINISHED,
                game=game,
            )
        )
        return game_ending(game)
