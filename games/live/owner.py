"""The owner of one live game: every action for it, in order, in one place.

A ``GameOwner`` lives in the process that holds the game's lease (see
``hall``). It keeps the game (``LiveGame``), the sockets attached to it,
the seats' presence (``presence``) and the turn's alarm, and handles one
command at a time under its lock: decide the step, write it (``journal``),
apply it in memory, send every audience its update and the sender its
answer (``broadcast``), set the next alarm (``timers``).

Its interface is typed both ways: ``handle`` takes a socket's or the site's
command; ``play`` (a player's step), ``make`` (a step the site decides) and
``move_due`` (the move due once the turn's time is up) return what was done
or raise the refusal, for a caller with no socket (``local``).

Sockets are sinks with ``send_text`` and ``close``: a consumer in this
process, or one in another process reached through the channel layer. The
owner sends every message itself, in order on each socket: a mover's
update comes before its ``ack``. An update is the step's events and each
audience's position after it; the step that ends the game goes out as a
``sync`` snapshot instead, with the result.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar, assert_never

import psycopg
from django.conf import settings
from django.db import DatabaseError

from common.errors import ApplicationError
from common.messages import Error
from games import messages
from games.errors import NotPlaying, StaleVersion, Unavailable
from games.live import broadcast, journal, loading, thinking
from games.live.commands import (
    Abort,
    Action,
    Heard,
    OwnerCommand,
    Rejoin,
    Reload,
    Resign,
    StepCommand,
    Sync,
)
from games.live.game import DISCONNECT, LiveGame
from games.live.presence import Presence
from games.live.steps import PLAYER, PLAYING, Answer, Step
from games.live.thinking import Thought
from games.live.timers import Alarm, now
from games.messages import FOLDED_ACKS, Ack
from joker.actions import Action as EngineAction
from joker.state import State

logger = logging.getLogger(__name__)

# How many steps' public events the owner keeps for resyncs.
RECENT_STEPS = 200
# An alarm may ring this much before its wall-clock time (the loop's clock
# and the wall clock are read apart).
EARLY = timedelta(milliseconds=20)
# A timeout move the database did not take is tried again after this long.
RETRY_UNSTORED = timedelta(seconds=1)

T = TypeVar("T")


class Sink(Protocol):
    """A socket as its owner sees it: in this process or another
    (``sinks.LocalSink``, ``sinks.RemoteSink``)."""

    async def send_text(self, text: str) -> None: ...

    async def close(self, code: int) -> None: ...


@dataclass
class Attached:
    """A socket attached to the game, speaking ``protocol``
    (docs/protocol.md, Protocol versions)."""

    sink: Sink
    audience: int | None
    protocol: int = 1
    heard_at: float = field(default_factory=time.monotonic)


class OwnersJournal(Protocol):
    """What an owner writes and reads through (``journal.Journal``; for an
    owner run by its caller, ``local.LocalJournal``)."""

    async def write(self, live: LiveGame, step: Step) -> None:
        """Make an ordinary step (not the game's last) durable."""

    async def finish(self, live: LiveGame, step: Step) -> dict[str, Any]:
        """Make the game's last step durable with what its end settles;
        what the end's snapshot adds."""

    async def read(self, query: Callable[..., T], *args: Any) -> T:
        """``query(*args)``, a function reading through Django."""

    async def record_presence(self, live: LiveGame) -> None:
        """Write the game's presence as it is now."""


class OwnersHall(Protocol):
    """What an owner needs of the hall that holds it (``hall.Hall``; for an
    owner run by its caller, ``local.LocalHall``)."""

    @property
    def journal(self) -> OwnersJournal:
        """The process's writer of steps and presence."""

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> object:
        """Run ``coroutine`` as a task of the hall's (stopped with it)."""

    async def think(
        self, bot: str, state: State, deal_actions: list[EngineAction]
    ) -> Thought:
        """A practice bot's move (``thinking.practice_move``)."""

    def game_over(self, owner: GameOwner) -> None:
        """The game ended: the lease is given up, the sockets still answered."""

    def forget(self, owner: GameOwner) -> None:
        """The game was deleted: the hall stops holding it."""


class GameOwner:
    def __init__(
        self, hall: OwnersHall, live: LiveGame, recent: list[tuple[int, bytes]]
    ):
        self.hall = hall
        self.live = live
        # The latest steps' public events (``broadcast.held``), for resyncs.
        self.recent: deque[tuple[int, bytes]] = deque(recent, maxlen=RECENT_STEPS)
        self.lock = asyncio.Lock()
        self.sockets: dict[str, Attached] = {}
        self.presence = Presence(self, self._grace_over)
        self.alarm = Alarm(self._alarm_rang)
        self.ending: dict[str, Any] | None = None
        self.gone = False

    @property
    def game_id(self) -> int:
        return self.live.game_id

    # Presence

    def present(self) -> set[int]:
        return self.presence.seats()

    async def start(self, silent_since: float) -> None:
        """Begin owning: the turn's alarm set, and presence as last written:
        a seat that was here is expected back (its sockets reconnect here),
        a seat away keeps its grace."""
        self.presence.resume(silent_since)
        self._arm()
        await self._presence_changed()

    async def attach(
        self,
        key: str,
        sink: Sink,
        audience: int | None,
        since: int | None,
        protocol: int = 1,
    ) -> None:
        self.sockets[key] = Attached(sink, audience, protocol)
        # The seat shown its hand, if the game is being played.
        shown = audience if self.live.status == PLAYING else None
        grace_left = None
        if shown is not None:
            grace_left = self.presence.grace_left(shown)
            self.presence.back(shown)
        sync = self.sync(audience, since)
        if protocol > 1:
            sync = replace(sync, protocol=protocol)
        await sink.send_text(broadcast.text(sync))
        if grace_left is not None:
            # Back within the grace: the seat was kept; the player is told
            # they were away and how much of the grace was left.
            await sink.send_text(broadcast.back_text(grace_left))
        if shown is not None:
            await self.presence.shown(shown)
        await self._presence_changed()

    async def detach(self, key: str) -> None:
        if self.sockets.pop(key, None) is not None:
            await self._presence_changed()

    def heard(self, key: str) -> None:
        attached = self.sockets.get(key)
        if attached is not None:
            attached.heard_at = time.monotonic()

    async def drop_silent(self, limit: float) -> None:
        """Forget sockets not heard from for ``limit`` seconds, and seats
        expected back that did not come."""
        checked_at = time.monotonic()
        silent = [k for k, a in self.sockets.items() if checked_at - a.heard_at > limit]
        for key in silent:
            attached = self.sockets.pop(key)
            try:
                await attached.sink.close(4408)
            except Exception:  # a socket already gone has nothing to close
                logger.debug("closing a silent socket failed", exc_info=True)
        self.presence.forget_expected(checked_at, limit)
        await self._presence_changed()

    async def _presence_changed(self) -> None:
        text = await self.presence.changed()
        if text is not None:
            await self._send_all_same(text)

    async def _grace_over(self, seat: int) -> None:
        """The seat's grace ran out: unless its player is back, the seat is
        left (Japanese Joker: the match is lost). Decided here, once: the
        step is fenced by the game's version like any other."""
        async with self.lock:
            live = self.live
            due = live.presence.get(seat)
            if due is None or seat in self.present() or self.gone:
                return
            if live.status != PLAYING or live.seats[seat].left:
                return
            if due - now() > EARLY:
                self.presence.arm_grace(seat, due)  # moved on by an outage meanwhile
                return
            try:
                await self._apply(live.decide_resign(seat, cause=DISCONNECT, now=now()))
            except Unavailable:
                self.presence.arm_grace(seat, now() + RETRY_UNSTORED)
            except ApplicationError as error:
                logger.info("no grace to end in game %s: %s", live.game_id, error)
            else:
                self.presence.cancel_grace(seat)

    # Commands

    async def handle(self, command: OwnerCommand, key: str | None) -> None:
        """One command from a socket (``key``) or from the site."""
        attached = self.sockets.get(key) if key else None
        if attached is not None:
            attached.heard_at = time.monotonic()
        match command:
            case Heard():
                pass
            case Sync(since=since):
                if attached is not None:
                    message = self.sync(attached.audience, since)
                    await attached.sink.send_text(broadcast.text(message))
            case Reload(version=version):
                # Told of a step another writer made: nothing to do when this
                # owner read the game after it (it took the game over since).
                if version is None or self.live.version < version:
                    await self.reload()
            case Action() | Resign() | Abort():
                await self._player_command(attached, command)
            case Rejoin(seat=seat, id=message_id):
                await self._rejoin(attached, seat, message_id)
            case _:
                assert_never(command)

    async def _player_command(
        self, attached: Attached | None, command: StepCommand
    ) -> None:
        """A player's step (``play``); the socket is answered with an
        ``ack`` or the refusal. The seat comes with the command (a
        spectator's never gets here: ``commands.from_frame``)."""
        if attached is None:
            return
        message_id = command.id
        moved_at = now()
        try:
            async with self.lock:
                step = self._decide(lambda live: _decided(live, command, moved_at))
                folded = await self._apply(step, Answering(attached, message_id))
        except ApplicationError as error:
            await attached.sink.send_text(
                broadcast.text(Error(message_id, error.code, str(error)))
            )
            return
        if not folded:
            ack = Ack(message_id, step.answer.version)
            await attached.sink.send_text(broadcast.text(ack))

    async def play(self, command: StepCommand) -> Answer:
        """A player's step made outside a socket (``local``): decided on the
        game as it is once the lock is taken, then made (``make``). What the
        player is answered; or the refusal raised (an ``ApplicationError``),
        nothing changed."""
        moved_at = now()
        step = await self.make(lambda live: _decided(live, command, moved_at))
        return step.answer

    async def make(self, decide: Callable[[LiveGame], Step]) -> Step:
        """Decide a step (``decide``, on the game as it is once the lock is
        taken) and make it: write it, apply it, send it. The step; or the
        refusal raised, nothing changed."""
        async with self.lock:
            step = self._decide(decide)
            await self._apply(step)
        return step

    def _decide(self, decide: Callable[[LiveGame], Step]) -> Step:
        """``decide`` on the game as it is (under the lock)."""
        if self.gone:
            # Handed to another process between the command and the lock.
            raise Unavailable("the game moved to another server: send your move again")
        return decide(self.live)

    async def _rejoin(
        self, attached: Attached | None, seat: int, message_id: str | None
    ) -> None:
        """The player asks for their seat back: answered at once; everyone
        sees the seat marked, and the seat is theirs from its next turn."""
        if attached is None:
            return
        try:
            async with self.lock:
                self.live.ask_to_rejoin(seat)
        except ApplicationError as error:
            await attached.sink.send_text(
                broadcast.text(Error(message_id, error.code, str(error)))
            )
            return
        await attached.sink.send_text(broadcast.text(Ack(message_id)))
        await self._send_all_same(broadcast.presence_text(self.live, self.present()))

    # Timers and bots

    def _arm(self) -> None:
        live = self.live
        if self.gone or live.status != PLAYING or live.deadline is None:
            self.alarm.cancel()
            return
        due = live.deadline
        if not live.to_move.played_by_bot:
            # A move sent just in time may arrive a moment late.
            due += timedelta(seconds=settings.PULKA_MOVE_LAG_SECONDS)
        self.alarm.set(due)

    def _alarm_rang(self) -> None:
        self.hall.spawn(self._time_up(self.live.version))

    async def _time_up(self, version: int) -> None:
        """The alarm rang for the turn of ``version``."""
        try:
            if not await self.move_due(version, early=EARLY):
                self._arm()  # moved by an outage meanwhile: not due yet
        except Unavailable:
            # The move is still due: try again once the database is back
            # (the version fences a write that did get through).
            self.alarm.set(now() + RETRY_UNSTORED)
        except ApplicationError as error:
            # Nobody to tell: the game moved elsewhere or is gone.
            logger.info("no move due in game %s: %s", self.game_id, error)

    async def move_due(
        self,
        version: int,
        at: datetime | None = None,
        early: timedelta = timedelta(0),
    ) -> bool:
        """Make the move due once the turn of ``version`` is out of time:
        the bot's (a practice bot thinks, where the hall has it think), or
        the autopilot's for a person out of time (``decide_automatic``).
        ``at`` is when it is made (None: now, by the wall clock); ``early``
        how long before the deadline that may be. False, nothing done, when
        the game is over or moved on from ``version``, or the deadline is
        still ahead; the refusal raised when the step was not made."""
        live = self.live
        if live.version != version or not live.move_is_due(at or now(), early):
            return False
        thought = None
        level = thinking.level_to_think(live.to_move)
        if level:
            # Thought without the lock: a player may still resign
            # meanwhile, and the version tells.
            thought = await self.hall.think(level, live.state, list(live.deal_actions))
        async with self.lock:
            live, moved_at = self.live, at or now()
            if self.gone or live.version != version:
                return False
            if not live.move_is_due(moved_at, early):
                return False
            await self._apply(live.decide_automatic(moved_at, thought))
        return True

    # Applying

    async def _apply(self, step: Step, answering: Answering | None = None) -> bool:
        """Write, apply and publish a decided step (under the lock). With
        ``answering``, the step answers that socket's action: whether its
        update carried the answer (protocol 2), so that no ``ack`` is due."""
        if not step.events:
            return False  # a resend: answered as before
        live = self.live
        ending = None
        try:
            if step.ends_game:
                # The end's snapshot carries what finishing the game settled.
                ending = await self.hall.journal.finish(live, step)
            else:
                await self.hall.journal.write(live, step)
        except journal.Gone:
            logger.info("game %s was deleted; forgetting it", live.game_id)
            self.hall.forget(self)
            raise NotPlaying("this game no longer exists") from None
        except journal.Fenced:
            logger.warning("game %s was written elsewhere; reloading", live.game_id)
            await self.reload()
            raise StaleVersion("the game moved on: here is where it stands") from None
        except (DatabaseError, psycopg.Error) as error:
            # The database is unreachable or out of space. Without this the
            # error ended the mover's socket with no word of why. Nothing is
            # applied here; should the write have reached the database after
            # all, the next one is fenced and the game reloaded, so a move
            # sent again (same id) is never played twice.
            logger.warning("game %s: step not stored: %s", live.game_id, error)
            raise Unavailable(
                "the game could not be saved just now: send your move again"
            ) from None
        live.commit(step)
        self.recent.extend(map(broadcast.held, step.public))
        if step.ends_game:
            self.ending = ending
        # Built only for the audiences with a socket here.
        wanted = {attached.audience for attached in self.sockets.values()}
        mover = None
        if step.ends_game:
            # The end is told as a snapshot: it carries the result, the deals
            # revealed and the coins won, which no event does.
            since = step.events[0].version - 1
            texts = {
                audience: broadcast.text(self.sync(audience, since))
                for audience in wanted
            }
        else:
            if answering is not None and answering.folds():
                mover = answering.socket
                mover_text = broadcast.update_text(
                    live, step, mover.audience, answering.message_id
                )
                if not self._shares_audience(mover):
                    wanted.discard(mover.audience)
            texts = broadcast.update_texts(live, step, wanted)
        for attached in list(self.sockets.values()):
            text = mover_text if attached is mover else texts[attached.audience]
            await self._send(attached, text)
        self._arm()
        if step.seat_back is not None:
            await self.presence.seat_back(step.seat_back)
            await self._presence_changed()
        if step.ends_game:
            self.hall.game_over(self)
        return mover is not None

    def _shares_audience(self, socket: Attached) -> bool:
        """Whether another socket here has ``socket``'s audience."""
        return any(
            other is not socket and other.audience == socket.audience
            for other in self.sockets.values()
        )

    async def reload(self) -> None:
        """Read the game again (another writer changed it) and resync all."""
        loaded = await self.hall.journal.read(loading.load, self.game_id)
        if loaded is None:
            return
        # Presence is this owner's to keep: what it holds is newer than
        # what it last wrote.
        loaded.presence = self.live.presence
        self.live = loaded
        if loaded.status != PLAYING:
            self.ending = await self.hall.journal.read(
                loading.ending_of, loaded.game_id
            )
        for attached in list(self.sockets.values()):
            message = self.sync(attached.audience, None)
            await attached.sink.send_text(broadcast.text(message))
        self._arm()
        if loaded.status != PLAYING:
            self.hall.game_over(self)

    # Sending

    def sync(self, audience: int | None, since: int | None) -> messages.Sync:
        return broadcast.live_sync(
            self.live,
            audience,
            self.present(),
            since,
            list(self.recent),
            self.ending,
        )

    async def _send_all_same(self, text: str) -> None:
        for attached in list(self.sockets.values()):
            await self._send(attached, text)

    async def _send(self, attached: Attached, text: str) -> None:
        try:
            await attached.sink.send_text(text)
        except Exception:  # one broken socket must not stop the others
            logger.debug("a send failed", exc_info=True)

    def stop(self) -> None:
        self.alarm.cancel()
        self.presence.stop()
        self.gone = True


@dataclass(frozen=True, slots=True)
class Answering:
    """The socket whose action a step answers, and the action's id."""

    socket: Attached
    message_id: str | None

    def folds(self) -> bool:
        """Whether the answer rides on the socket's update (protocol 2)."""
        return self.message_id is not None and self.socket.protocol >= FOLDED_ACKS


def _decided(live: LiveGame, command: StepCommand, moved_at: datetime) -> Step:
    """The step a player's command makes of the game as it is."""
    match command:
        case Action(seat=seat, id=client_id, version=version, action=action):
            return live.decide_play(
                seat,
                action,
                expected_version=version,
                client_id=client_id,
                now=moved_at,
                lag=settings.PULKA_MOVE_LAG_SECONDS,
            )
        case Resign(seat=seat):
            return live.decide_resign(seat, cause=PLAYER, now=moved_at)
        case Abort(seat=seat):
            return live.decide_abort(seat, moved_at)
        case _:
            assert_never(command)
