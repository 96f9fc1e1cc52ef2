"""Deadlines on the event loop.

The owner of a game keeps one ``Alarm`` for it: the move due when the seat
to move runs out of time (or a bot's pause is over). The deadline itself is
stored with the game, so an alarm lost with its process is found again by
the process that takes the game over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime


def now() -> datetime:
    """The time, aware and in UTC, as Django's ``timezone.now()`` gives it
    with USE_TZ, without reading the settings on every move."""
    return datetime.now(UTC)


class Alarm:
    """Calls ``callback()`` at a wall-clock time; setting it again moves it."""

    def __init__(self, callback: Callable[[], object]):
        self.callback = callback
        self.handle: asyncio.TimerHandle | None = None
        self.due: datetime | None = None

    def set(self, due: datetime | None) -> None:
        self.cancel()
        if due is None:
            return
        loop = asyncio.get_running_loop()
        delay = (due - now()).total_seconds()
        self.due = due
        self.handle = loop.call_at(loop.time() + max(delay, 0.0), self._ring)

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        self.handle = None
        self.due = None

    def _ring(self) -> None:
        self.handle = None
        self.callback()
