"""A practice bot's move, thought in a process of the bot pool.

Runs in a separate process (``hall.bot_pool``), so it takes only values
that pickle and imports nothing of Django.

A practice bot plays at one of three levels. Each level is a budget: how
many deals the bot samples for a decision (a share of the normal level's,
which the setting ``PULKA_PRACTICE_BOT_SAMPLES`` gives) and the most time it
may think about one move. The easy bot guesses from a handful of deals and
so misjudges often; the strong one weighs many and is given the time.
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
from dataclasses import dataclass

from games.engine.bots import MonteCarloBot


@dataclass(frozen=True)
class Level:
    share: float  # of the normal level's sampled deals
    seconds: float  # the most thinking for one move


# By the seat's bot kind (games.models.Seat.Bot).
LEVELS = {
    "easy": Level(share=0.25, seconds=0.3),
    "practice": Level(share=1, seconds=1.0),
    "strong": Level(share=4, seconds=2.5),
}


@dataclass(frozen=True)
class Thought:
    action: object
    milliseconds: int  # thinking time, as the game's record keeps it


def thinks(bot: str) -> bool:
    """Whether a seat's bot kind thinks (the autopilot does not)."""
    return bot in LEVELS


def practice_move(state, deal_actions: list, bot: str, samples: int) -> Thought:
    """The move of a practice bot of kind ``bot`` for the seat to move in
    ``state``, told the public actions of the deal so far; ``samples`` is
    the normal level's number of sampled deals."""
    level = LEVELS[bot]
    began = time.monotonic()
    player = MonteCarloBot(
        samples=max(1, round(samples * level.share)),
        rng=random.Random(),
        seconds=level.seconds,
    )
    action = player.choose(state, deal_actions)
    return Thought(action, round((time.monotonic() - began) * 1000))


def follow_server(server_pid: int) -> None:
    """Start a bot process: it ends as soon as the server that made it does.
    A process pool's workers outlive a server killed outright, and they
    keep the pool's fork server and resource tracker alive too."""
    watcher = threading.Thread(
        target=_exit_with, args=(os.pidfd_open(server_pid),), daemon=True
    )
    watcher.start()


def _exit_with(server: int) -> None:
    select.select([server], [], [])  # readable once the server has exited
    os._exit(0)
