"""A game's owner run in the calling process and thread, for the steps made
outside a server: a table's first deal, the demo's whole games, a
tournament called off, and the games the tests play.

``owner_of(game_id)`` reads the game under its row lock (two such writers
go one after the other) and hands out a ``LocalTable``: a ``GameOwner`` on a
``LocalHall``. Each of its calls runs one of the owner's own methods to its
end and returns what the owner returned, or raises the refusal it raised.
The steps are the owner's own: decided by the same ``LiveGame``, written by
the same statements, fenced against a server's owner by the events' unique
version. Once the caller's transaction commits, that owner, if any, is told
to read the game again.

The local hall writes on the caller's Django connection, inside its
transaction (a test's, a request's): the server's group-commit ``Journal``
has connections of its own, which would not see rows not yet committed.
Its owner keeps no time of its own: it makes the move due when its caller
says (``move_due``, or a ``Due`` in ``play_out``), on the caller's clock, so
a game may be played on a clock set back (the demo's) and no alarm outlives
the call. A practice bot thinks in this process.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from common.errors import NotFound
from games.live import journal, loading, outside, thinking
from games.live.commands import (
    Abort,
    Action,
    Reload,
    Resign,
    StepCommand,
    players_seat,
)
from games.live.game import LiveGame
from games.live.owner import GameOwner, OwnersJournal
from games.live.statements import GAME, jsonb, presence_json
from games.live.steps import PLAYING, Step
from games.live.thinking import Thought
from games.selectors import game_locked
from joker.actions import Action as EngineAction
from joker.state import State

T = TypeVar("T")


class LocalJournal(OwnersJournal):
    """The journal of a ``LocalHall``: every write and read on the caller's
    thread, so on its Django connection and inside its transaction."""

    async def write(self, live: LiveGame, step: Step) -> None:
        await sync_to_async(journal.write_sync)(live, step)

    async def finish(self, live: LiveGame, step: Step) -> dict[str, Any]:
        return await sync_to_async(journal.finish_sync)(live, step)

    async def read(self, query: Callable[..., T], *args: Any) -> T:
        return await sync_to_async(query)(*args)

    async def record_presence(self, live: LiveGame) -> None:
        await sync_to_async(_record_presence)(live)


def _record_presence(live: LiveGame) -> None:
    # Of Any: the stubs' parameter types leave out psycopg's own adapters
    # (``Jsonb``).
    params: list[Any] = [jsonb(presence_json(live.presence)), live.game_id]
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {GAME} SET presence = %s WHERE id = %s", params)


class LocalHall:
    """What a ``GameOwner`` calls back, for an owner run by its caller."""

    def __init__(self) -> None:
        self.journal = LocalJournal()
        self.over = False
        self.forgotten = False

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        # Only the owner's alarms spawn: a local owner's moves come when its
        # caller says, and its loop ends with each call.
        coroutine.close()

    async def think(
        self, bot: str, state: State, deal_actions: list[EngineAction]
    ) -> Thought:
        # In this process: nothing else waits on its loop.
        return thinking.practice_move(
            state, deal_actions, bot, settings.PULKA_PRACTICE_BOT_SECONDS
        )

    def game_over(self, owner: GameOwner) -> None:
        self.over = True

    def forget(self, owner: GameOwner) -> None:
        owner.stop()
        self.forgotten = True


@dataclass(frozen=True, slots=True)
class Due:
    """What a ``play_out`` step is, decided as "the move due": the one the
    owner's alarm makes (``GameOwner.move_due``), made ``at`` (the deadline
    or after it)."""

    at: datetime


# How ``play_out`` has each step decided, on the game as held.
Decide = Callable[[LiveGame], Step | Due]


class LocalTable:
    """A game's owner, driven by synchronous calls (see ``owner_of``)."""

    def __init__(self, live: LiveGame):
        self.owner = GameOwner(LocalHall(), live, [])

    @property
    def live(self) -> LiveGame:
        return self.owner.live

    # A player's commands, as their socket sends them

    def act(
        self, seat: int | None, action: object, version: int, client_id: str
    ) -> dict[str, int]:
        """``seat``'s action (a record action without ``seat``), chosen on
        ``version``; ``client_id`` makes a resend apply once. ``seat`` None
        is a spectator. The fields of the player's ``ack``."""
        return self._play(Action(players_seat(seat), client_id, version, action))

    def resign(self, seat: int | None) -> dict[str, int]:
        """Leave the game: in Japanese Joker the opponent wins; in a
        4-player game a bot plays the seat on and its player is placed last."""
        return self._play(Resign(players_seat(seat), None))

    def abort(self, seat: int | None) -> dict[str, int]:
        """Call the game off before its first card; nobody wins or loses."""
        return self._play(Abort(players_seat(seat), None))

    def _play(self, command: StepCommand) -> dict[str, int]:
        return async_to_sync(self.owner.play)(command).fields()

    # Steps of the site and of the clock, each at the caller's ``now``

    def make(self, decide: Callable[[LiveGame], Step]) -> Step:
        """Decide a step on the game as held and have the owner write and
        apply it (with what the game's end settles, when it ends it)."""
        return async_to_sync(self.owner.make)(decide)

    def first_deal(self, now: datetime) -> None:
        self.make(lambda live: live.decide_first_deal(now))

    def move_due(self, now: datetime | None = None) -> bool:
        """The move the owner's alarm makes once the turn's time is up: the
        bot's (a practice bot thinks here), or the autopilot's for a person
        out of time. False (nothing done) when the game is over or the
        deadline is still ahead at ``now``."""
        at = now or timezone.now()
        return async_to_sync(self.owner.move_due)(self.live.version, at)

    def call_off(self) -> bool:
        """Stop the game for the site (its tournament was cancelled): no
        result, stakes back. False when it was no longer being played."""
        if self.live.status != PLAYING:
            return False
        now = timezone.now()
        return bool(self.make(lambda live: live.decide_abort(None, now)).events)

    def play_out(self, decide: Decide) -> None:
        """Play the game to its end, each step decided by ``decide`` on the
        game as held: for whole games that nobody watches (the demo's, and
        those of the tests about what follows a game)."""
        async_to_sync(self._play_out)(decide)

    async def _play_out(self, decide: Decide) -> None:
        # One run of the owner for the whole game, not one per step.
        while self.live.status == PLAYING:
            await self._play_one(decide)

    async def _play_one(self, decide: Decide) -> None:
        live = self.live
        decided = decide(live)
        if not isinstance(decided, Due):
            await self.owner.make(lambda _: decided)
        elif not await self.owner.move_due(live.version, decided.at):
            raise ValueError(f"no move is due at {decided.at} in {live.game_id}")


@contextmanager
def owner_of(game_id: int, *, client_id: str | None = None) -> Iterator[LocalTable]:
    """The game's owner in this thread, for the length of the block, under
    the game's row lock; the answers to action ids are read for every id, or
    for ``client_id`` alone when given. Raises ``NotFound`` when there is no
    such game."""
    with transaction.atomic():
        game_locked(game_id)
        live = loading.load(game_id, client_id=client_id)
        if live is None:  # never under the row lock; said for the type checker
            raise NotFound(f"there is no game {game_id}")
        table = LocalTable(live)
        before = table.live.version
        try:
            yield table
        finally:
            table.owner.stop()
            version = table.live.version
            if version != before:
                reload = Reload(version)
                transaction.on_commit(lambda: outside.tell_owner(game_id, reload))
