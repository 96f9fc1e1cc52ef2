"""Who is at one live game's table, as the game's owner keeps it.

A seat is present while a socket of its player is attached to the owner, or,
just after the game changed owner, while it is expected back (its sockets
reconnect to the new owner). A player who has been shown their hand and goes
away has a grace period to come back; when it runs out the owner decides
what follows (``GameOwner``). Each seat's grace is in ``LiveGame.presence``
and written to the game's row, as the deadline is, so whoever takes the game
over keeps it running.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping
from datetime import datetime, timedelta
from typing import Any, Protocol

import psycopg
from django.conf import settings
from django.db import DatabaseError

from games.live import broadcast
from games.live.game import LiveGame
from games.live.steps import PLAYING
from games.live.timers import Alarm, now

logger = logging.getLogger(__name__)


# What presence needs of the owner of its game (``owner.GameOwner``), named
# here so that presence depends on the owner's shape, not its module.


class Socket(Protocol):
    @property
    def audience(self) -> int | None:
        """The seat the socket's player has, or None for a spectator."""


class Journal(Protocol):
    async def record_presence(self, live: LiveGame) -> None:
        """Write the game's presence as it is now."""


class Hall(Protocol):
    @property
    def journal(self) -> Journal:
        """The process's writer of presence."""

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> object:
        """Run ``coroutine`` as a task of the hall's."""


class Owner(Protocol):
    @property
    def live(self) -> LiveGame:
        """The game as it is now (replaced when it is read again)."""

    @property
    def sockets(self) -> Mapping[str, Socket]:
        """The sockets attached to the game."""

    @property
    def hall(self) -> Hall:
        """The hall that holds the owner."""


class Presence:
    """The presence of one owner's game. ``owner`` has the game (``live``,
    replaced when it is read again), the sockets, and the ``hall`` that
    writes and runs tasks; ``grace_over(seat)`` is called when a seat's
    grace runs out."""

    def __init__(
        self, owner: Owner, grace_over: Callable[[int], Coroutine[Any, Any, None]]
    ):
        self.owner = owner
        self.grace_over = grace_over
        # Seats that were present when the game changed owner, until their
        # sockets come back or the silence limit passes (``hall``).
        self.expected: dict[int, float] = {}
        # The alarm of each away seat's disconnect grace (its time is in
        # ``live.presence``).
        self.graces: dict[int, Alarm] = {}
        # Presence is written one change at a time, each the whole of it.
        self.lock = asyncio.Lock()
        # The seats present as everyone was last told.
        self.told: set[int] = set()

    def seats(self) -> set[int]:
        sockets = self.owner.sockets.values()
        seats = {a.audience for a in sockets if a.audience is not None}
        return seats | set(self.expected)

    def resume(self, silent_since: float) -> None:
        """Presence as last written, for a new owner: a seat that was here
        is expected back (its sockets reconnect here), a seat away keeps
        its grace."""
        live = self.owner.live
        for seat, grace_due in live.presence.items():
            if live.seats[seat].left:
                continue
            if grace_due is None:
                self.expected[seat] = silent_since
            else:
                self.arm_grace(seat, grace_due)

    def back(self, seat: int) -> None:
        """A socket of the seat's player is here (the game being played)."""
        self.expected.pop(seat, None)
        self.cancel_grace(seat)

    def grace_left(self, seat: int) -> float | None:
        """Seconds left of the seat's running grace; None when it has none
        running (present, never shown its hand, or left the game)."""
        live = self.owner.live
        due = live.presence.get(seat)
        if due is None or live.seats[seat].left:
            return None
        return max(0.0, (due - now()).total_seconds())

    async def seat_back(self, seat: int) -> None:
        """The seat's player took it back from the bot: present as far as
        its grace goes (``changed`` starts a new one if they are gone)."""
        presence = self.owner.live.presence
        if presence.get(seat) is not None:
            presence[seat] = None
            await self.record()

    async def shown(self, seat: int) -> None:
        """The seat's player has been sent their hand: recorded, when it is
        their first time or they are back from away, before anything else
        happens to the seat."""
        presence = self.owner.live.presence
        if presence.get(seat, "never") is not None:
            presence[seat] = None
            await self.record()

    def forget_expected(self, checked_at: float, limit: float) -> None:
        """Stop expecting the seats not back ``limit`` seconds after the
        game changed owner."""
        for seat, since in list(self.expected.items()):
            if checked_at - since > limit:
                del self.expected[seat]

    async def changed(self) -> str | None:
        """Start the grace of each seat recorded here that has no socket
        now; the ``presence`` message to send everyone if who is here
        changed since they were last told. (Both read the state now, not a
        set taken before an await: changes made meanwhile by other sockets
        count once.)"""
        live = self.owner.live
        present = self.seats()
        if live.status == PLAYING:
            # A player who was here and is gone has the grace period to come
            # back; one who never came is played for by the turn timer.
            grace = timedelta(seconds=settings.PULKA_DISCONNECT_GRACE_SECONDS)
            gone = [
                seat
                for seat, grace_due in live.presence.items()
                if grace_due is None
                and seat not in present
                and not live.seats[seat].left
            ]
            for seat in gone:
                due = live.presence[seat] = now() + grace
                self.arm_grace(seat, due)
            if gone:
                await self.record()
        present = self.seats()  # the await above may have changed it
        if present == self.told:
            return None
        self.told = present
        return broadcast.presence_text(live, present)

    async def record(self) -> None:
        """Write presence for whoever takes the game over should this
        process die: the graces are jobs of record, as the deadline is."""
        async with self.lock:
            live = self.owner.live
            try:
                await self.owner.hall.journal.record_presence(live)
            except (DatabaseError, psycopg.Error) as error:
                # The graces still run here; only a takeover meanwhile
                # would miss this change.
                logger.warning("game %s: presence not stored: %s", live.game_id, error)

    # Graces

    def arm_grace(self, seat: int, due: datetime) -> None:
        alarm = self.graces.get(seat)
        if alarm is None:
            alarm = self.graces[seat] = Alarm(
                lambda: self.owner.hall.spawn(self.grace_over(seat))
            )
        alarm.set(due)

    def cancel_grace(self, seat: int) -> None:
        alarm = self.graces.pop(seat, None)
        if alarm is not None:
            alarm.cancel()

    def stop(self) -> None:
        for alarm in self.graces.values():
            alarm.cancel()
