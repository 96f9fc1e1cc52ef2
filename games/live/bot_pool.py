"""The processes the practice bots think in, off every event loop.

One pool per server process, shared by its halls; each of its processes
ends with the server, however the server ends (``thinking.follow_server``).
``LOAD`` counts the moves of the last minutes and those cut short, for
/health/.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

from games.live import thinking
from joker.actions import Action
from joker.state import State

logger = logging.getLogger(__name__)

_pool: ProcessPoolExecutor | None = None


class Load:
    """The bot moves thought in this process over the last ``window``
    seconds: how many, and how many were given less than their level's
    budget because every bot process was busy."""

    def __init__(
        self, window: float = 300.0, clock: Callable[[], float] = time.monotonic
    ):
        self.window = window
        self.clock = clock
        self.moves: deque[tuple[float, bool]] = deque()  # (when, cut short)

    def add(self, thought: thinking.Thought) -> None:
        self.moves.append((self.clock(), thought.cut_short))
        self._forget_old()

    def summary(self) -> dict[str, Any]:
        self._forget_old()
        moves = len(self.moves)
        cut = sum(cut_short for _, cut_short in self.moves)
        return {
            "processes": settings.PULKA_BOT_PROCESSES,
            "window_seconds": round(self.window),
            "moves": moves,
            "cut_short": cut,
            "share_cut_short": round(cut / moves, 3) if moves else 0.0,
        }

    def _forget_old(self) -> None:
        since = self.clock() - self.window
        while self.moves and self.moves[0][0] < since:
            self.moves.popleft()


LOAD = Load()


def pool() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(
            max_workers=settings.PULKA_BOT_PROCESSES,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=thinking.follow_server,
            initargs=(os.getpid(),),
        )
    return _pool


def stop() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True, cancel_futures=True)
        _pool = None


def _replace_broken(broken: ProcessPoolExecutor) -> None:
    """Forget a pool one of whose processes died (killed for memory, say):
    a broken pool refuses every later move, so the next gets a new one."""
    global _pool
    if _pool is broken:
        _pool = None
        broken.shutdown(wait=False, cancel_futures=True)


async def think(bot: str, state: State, deal_actions: list[Action]) -> thinking.Thought:
    """A practice bot's move for the seat to move in ``state``; asked again
    of a new pool, once, if a bot process died under it."""
    asked_at = time.time()  # a long wait for a free bot process counts too
    current = pool()
    try:
        thought = await _think_in(current, bot, state, deal_actions, asked_at)
    except BrokenProcessPool:
        logger.warning("a bot process died; the bots think in a new pool")
        _replace_broken(current)
        thought = await _think_in(pool(), bot, state, deal_actions, asked_at)
    LOAD.add(thought)
    return thought


async def _think_in(
    executor: ProcessPoolExecutor,
    bot: str,
    state: State,
    deal_actions: list[Action],
    asked_at: float,
) -> thinking.Thought:
    return await asyncio.get_running_loop().run_in_executor(
        executor,
        thinking.practice_move,
        state,
        deal_actions,
        bot,
        settings.PULKA_PRACTICE_BOT_SECONDS,
        asked_at,
    )
