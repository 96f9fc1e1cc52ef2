"""The processes the practice bots think in, off every event loop.

One pool per server process, shared by its halls; each of its processes
ends with the server, however the server ends (``thinking.follow_server``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor

from django.conf import settings

from games.live import thinking

_pool: ProcessPoolExecutor | None = None


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


async def think(bot: str, state, deal_actions: list) -> thinking.Thought:
    """A practice bot's move for the seat to move in ``state``."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(
        pool(),
        thinking.practice_move,
        state,
        deal_actions,
        bot,
        settings.PULKA_PRACTICE_BOT_SECONDS,
        time.time(),  # the wait for a free bot process counts too
    )
