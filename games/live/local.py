"""A game's owner run in the calling process and thread, for the steps made
outside a server: a table's first deal, the demo's whole games, a
tournament called off, and the games the tests play.

``owner_of(game_id)`` reads the game under its row lock (two such writers
go one after the other) and hands out a ``LocalTable``: a ``GameOwner`` on a
``LocalHall``. Each of its calls runs the owner to the end of one command
and returns what the owner answered, or raises the refusal it sent. The
steps are the owner's own: decided by the same ``LiveGame``, written by the
same statements, fenced against a server's owner by the events' unique
version. Once the caller's transaction commits, that owner, if any, is told
to read the game again.

The local hall writes on the caller's Django connection, inside its
transaction (a test's, a request's): the server's group-commit ``Journal``
has connections of its own, which would not see rows not yet committed.
Its owner keeps no time of its own: it makes the move due when its caller
says (``move_due``), on the caller's clock, so a game may be played on a
clock set back (the demo's) and no alarm outlives the call.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import orjson
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from common.errors import ApplicationError, Forbidden, NotAllowed, NotFound
from games.errors import NotPlaying, StaleVersion, Unavailable
from games.live import commands, journal, loading, relay, thinking
from games.live.commands import Reload
from games.live.game import PLAYING, Late, LiveGame, Step
from games.live.owner import Attached, GameOwner
from games.live.statements import GAME, jsonb, presence_json
from games.selectors import game_locked

# The refusals an error frame may carry, raised again by their code.
REFUSALS = {
    kind.code: kind
    for kind in (
        NotFound,
        Forbidden,
        NotAllowed,
        StaleVersion,
        NotPlaying,
        Unavailable,
        Late,
    )
}


class LocalJournal:
    """The journal of a ``LocalHall``: every write and read on the caller's
    thread, so on its Django connection and inside its transaction."""

    async def write(self, live: LiveGame, step: Step) -> None:
        await sync_to_async(journal.write_sync)(live, step)

    async def finish(self, live: LiveGame, step: Step) -> dict:
        return await sync_to_async(journal.finish_sync)(live, step)

    async def read(self, query, *args):
        return await sync_to_async(query)(*args)

    async def record_presence(self, live: LiveGame) -> None:
        await sync_to_async(_record_presence)(live)


def _record_presence(live: LiveGame) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {GAME} SET presence = %s WHERE id = %s",
            [jsonb(presence_json(live.presence)), live.game_id],
        )


class LocalHall:
    """What a ``GameOwner`` calls back, for an owner run by its caller."""

    def __init__(self):
        self.journal = LocalJournal()
        self.over = False
        self.forgotten = False

    def spawn(self, coroutine) -> None:
        # Only the owner's alarms spawn: a local owner's moves come when its
        # caller says, and its loop ends with each call.
        coroutine.close()

    def game_over(self, owner: GameOwner) -> None:
        self.over = True

    def forget(self, owner: GameOwner) -> None:
        owner.stop()
        self.forgotten = True


class Sink:
    """A socket's stand-in: keeps the frames the owner sends it."""

    def __init__(self):
        self.frames: list[dict] = []

    async def send_text(self, text: str) -> None:
        self.frames.append(orjson.loads(text))

    async def close(self, code: int) -> None:
        pass


class LocalTable:
    """A game's owner, driven by synchronous calls (see ``owner_of``)."""

    def __init__(self, live: LiveGame):
        self.owner = GameOwner(LocalHall(), live, [])

    @property
    def live(self) -> LiveGame:
        return self.owner.live

    # A player's commands, as their socket sends them

    def act(self, seat: int | None, action, version: int, client_id: str) -> dict:
        """``seat``'s action (a record action without ``seat``), chosen on
        ``version``; ``client_id`` makes a resend apply once. ``seat`` None
        is a spectator."""
        frame = {"type": "action", "id": client_id, "version": version}
        return self._send(seat, {**frame, "action": action})

    def resign(self, seat: int | None) -> dict:
        """Leave the game: in Japanese Joker the opponent wins; in a
        4-player game a bot plays the seat on and its player is placed last."""
        return self._send(seat, {"type": "resign", "id": uuid.uuid4().hex})

    def abort(self, seat: int | None) -> dict:
        """Call the game off before its first card; nobody wins or loses."""
        return self._send(seat, {"type": "abort", "id": uuid.uuid4().hex})

    def _send(self, seat: int | None, frame: dict) -> dict:
        """``frame`` through the owner as from a socket of ``seat``: the
        owner's answer, or the refusal it sent raised again."""
        try:
            command = commands.from_frame(frame, seat)
        except commands.Refused as refused:
            raise _refusal(refused.code, str(refused)) from None
        sink, key = Sink(), uuid.uuid4().hex
        self.owner.sockets[key] = Attached(sink, seat)
        try:
            async_to_sync(self.owner.handle)(command, key)
        finally:
            del self.owner.sockets[key]
        reply = sink.frames[-1]
        if reply["type"] == "error":
            raise _refusal(reply["code"], reply["message"])
        return {k: v for k, v in reply.items() if k not in ("type", "id")}

    # Steps of the site and of the clock, each at the caller's ``now``

    def make(self, decide: Callable[[LiveGame], Step]) -> Step:
        """Decide a step on the game as held and have the owner write and
        apply it (with what the game's end settles, when it ends it)."""
        return async_to_sync(self._make)(decide)

    async def _make(self, decide: Callable[[LiveGame], Step]) -> Step:
        async with self.owner.lock:
            step = decide(self.owner.live)
            await self.owner._apply(step)
            return step

    def first_deal(self, now) -> None:
        self.make(lambda live: live.decide_first_deal(now))

    def move_due(self, now=None) -> bool:
        """The move the owner's alarm makes once the turn's time is up: the
        bot's (a practice bot thinks here), or the autopilot's for a person
        out of time. False (nothing done) when the game is over or the
        deadline is still ahead at ``now``."""
        now = now or timezone.now()
        if not self.live.move_is_due(now):
            return False
        return bool(self.make(lambda live: due_move(live, now)).events)

    def call_off(self) -> bool:
        """Stop the game for the site (its tournament was cancelled): no
        result, stakes back. False when it was no longer being played."""
        if self.live.status != PLAYING:
            return False
        now = timezone.now()
        return bool(self.make(lambda live: live.decide_abort(None, now)).events)

    def play_out(self, decide: Callable[[LiveGame], Step]) -> None:
        """Play the game to its end, each step decided by ``decide`` on the
        game as held: for whole games that nobody watches (the demo's, and
        those of the tests about what follows a game)."""
        async_to_sync(self._play_out)(decide)

    async def _play_out(self, decide: Callable[[LiveGame], Step]) -> None:
        # One run of the owner for the whole game, not one per step.
        while self.owner.live.status == PLAYING:
            await self._make(decide)


def _refusal(code: str, message: str) -> ApplicationError:
    """The refusal an error frame carries, of its own kind when it has one."""
    kind = REFUSALS.get(code)
    if kind is None:
        return ApplicationError(message, code=code)
    return kind(message)


def due_move(live: LiveGame, now) -> Step:
    """The move made when the turn's time is up at ``now``, as the owner's
    alarm makes it: the bot's (a practice bot thinks here, in this process),
    or the autopilot's for a person out of time."""
    thought = None
    level = thinking.level_to_think(live)
    if level:
        thought = thinking.practice_move(
            live.state,
            list(live.deal_actions),
            level,
            settings.PULKA_PRACTICE_BOT_SECONDS,
        )
    return live.decide_automatic(now, thought)


@contextmanager
def owner_of(game_id: int, *, client_id: str | None = None) -> Iterator[LocalTable]:
    """The game's owner in this thread, for the length of the block, under
    the game's row lock; the answers to action ids are read for every id, or
    for ``client_id`` alone when given. Raises ``NotFound`` when there is no
    such game."""
    with transaction.atomic():
        game_locked(game_id)
        table = LocalTable(loading.load(game_id, client_id=client_id))
        before = table.live.version
        try:
            yield table
        finally:
            table.owner.stop()
            version = table.live.version
            if version != before:
                reload = Reload(version)
                transaction.on_commit(lambda: relay.tell_owner(game_id, reload))
