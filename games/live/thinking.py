"""A practice bot's move, thought in a process of the bot pool.

Runs in a separate process (``bot_pool``), so it takes only values
that pickle and imports nothing of Django.

A practice bot is the engine's ``IsmctsBot`` at one of three levels. Each
level is a thinking budget per move, a share of the normal level's, which
the setting ``PULKA_PRACTICE_BOT_SECONDS`` gives: the easy bot weighs a
handful of deals and so misjudges often; the strong one weighs many. The
budget is wall time, counted from when the move is asked for, so a bot
never keeps a player waiting past it, even when the pool is busy (it then
thinks less).
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
from dataclasses import dataclass

from joker.bots import IsmctsBot
from joker.bots.ismcts import LEVELS as BUDGETS

# By the seat's bot kind (games.models.Seat.Bot): the share of the normal
# level's thinking budget, in the engine's proportions.
LEVELS = {
    kind: BUDGETS[level] / BUDGETS["normal"]
    for kind, level in (("easy", "easy"), ("practice", "normal"), ("strong", "strong"))
}


# The least a bot is given: enough to answer with its first guess.
MINIMUM_BUDGET = 0.001


@dataclass(frozen=True)
class Thought:
    action: object
    milliseconds: int  # thinking time, as the game's record keeps it


def thinks(bot: str) -> bool:
    """Whether a seat's bot kind thinks (the autopilot does not)."""
    return bot in LEVELS


def level_to_think(live) -> str | None:
    """The level of the practice bot whose move is due, when one thinks it:
    a seat its player left, or the autopilot's, moves without thinking."""
    seat = live.to_move
    return seat.bot if thinks(seat.bot) and not seat.left else None


def practice_move(
    state, deal_actions: list, bot: str, seconds: float, asked_at: float | None = None
) -> Thought:
    """The move of a practice bot of kind ``bot`` for the seat to move in
    ``state``, told the public actions of the deal so far; ``seconds`` is
    the normal level's thinking budget per move.

    ``asked_at`` (``time.time()`` when the move was asked for) counts the
    wait for a free process against the budget, so a busy pool makes the
    bot think less, never the player wait longer; a bot out of time makes
    its first guess at once."""
    began = time.monotonic()
    budget = seconds * LEVELS[bot]
    if asked_at is not None:
        budget -= max(0.0, time.time() - asked_at)
    player = IsmctsBot(budget=max(budget, MINIMUM_BUDGET), rng=random.Random())
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
