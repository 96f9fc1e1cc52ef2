"""A practice bot's move, thought in a process of the bot pool.

Runs in a separate process (``bot_pool``), so it takes only values
that pickle and imports nothing of Django.

A practice bot is the engine's ``IsmctsBot`` at one of three levels. Each
level is a thinking budget per move by game, a share of the normal level's
in the 4-player game, which the setting ``PULKA_PRACTICE_BOT_SECONDS``
gives: the easy bot weighs a
handful of deals and so misjudges often; the strong one weighs many. The
budget is wall time, counted from when the move is asked for, so a bot
never keeps a player waiting long, even when the pool is busy.

The policy when the pool is busy: a move may wait for a free process for up
to its level's budget (and at least 0.1 s) and still think its whole
budget; only the wait beyond that comes off its thinking. A pool with
enough processes for the load (``PULKA_BOT_PROCESSES``, one per core by
default) gives every move its whole budget; one whose queue backs up cuts
the moves that waited longest, down to a first guess, so that a player
waits at most twice the bot's budget (or the budget and 0.1 s) beyond the
bot's pause. Every move
says what it was given and whether that was less than its level's budget
(``Thought.cut_short``): the game's record keeps both, and /health/ shows
the share cut short.
"""

from __future__ import annotations

import os
import random
import select
import signal
import threading
import time
from dataclasses import dataclass
from typing import Protocol

from joker.actions import Action
from joker.bots import IsmctsBot
from joker.bots.ismcts import LEVELS as BUDGETS
from joker.state import State

# The engine's level of each seat's bot kind (games.models.Seat.Bot).
LEVELS = {"easy": "easy", "practice": "normal", "strong": "strong"}


def budget_share(bot: str, japanese: bool) -> float:
    """A move's thinking budget for a seat's bot kind, as a share of the
    normal level's in the 4-player game, in the engine's proportions."""
    game = "japanese" if japanese else "classic"
    return BUDGETS[LEVELS[bot]][game] / BUDGETS["normal"]["classic"]


# The least a bot is given: enough to answer with its first guess.
MINIMUM_BUDGET = 0.001

# How long a move may wait for a free bot process before the wait comes off
# its thinking: its level's budget, and at least a tenth of a second, which
# nobody notices after the bot's pause (PULKA_BOT_MOVE_SECONDS, 1 s) but
# which covers a busy machine's delays in waking a bot process.
WAIT_ALLOWED_SHARE = 1.0
WAIT_ALLOWED_AT_LEAST = 0.1


@dataclass(frozen=True)
class Thought:
    action: Action
    milliseconds: int  # thinking time, as the game's record keeps it
    budget_ms: int = 0  # the thinking budget the move was given
    # Given less than its level's budget, the bot processes being busy.
    cut_short: bool = False


def budget_given(full: float, waited: float) -> float:
    """The thinking budget of a move whose level asks for ``full`` seconds,
    after ``waited`` seconds in the queue for a free bot process."""
    allowed = max(WAIT_ALLOWED_SHARE * full, WAIT_ALLOWED_AT_LEAST)
    late = max(0.0, waited - allowed)
    return max(full - late, MINIMUM_BUDGET) if late else full


def thinks(bot: str) -> bool:
    """Whether a seat's bot kind thinks (the autopilot does not)."""
    return bot in LEVELS


class MovingSeat(Protocol):
    """The seat to move, as the live game has it (``game.SeatInfo``)."""

    @property
    def bot(self) -> str:
        """The seat's bot kind ("" for a person)."""

    @property
    def left(self) -> bool:
        """Whether its player left the game (a bot plays for them)."""


def level_to_think(seat: MovingSeat) -> str | None:
    """The level of the practice bot that moves for ``seat``, when one
    thinks: a seat its player left, or the autopilot's, moves without
    thinking."""
    return seat.bot if thinks(seat.bot) and not seat.left else None


def practice_move(
    state: State,
    deal_actions: list[Action],
    bot: str,
    seconds: float,
    asked_at: float | None = None,
) -> Thought:
    """The move of a practice bot of kind ``bot`` for the seat to move in
    ``state``, told the public actions of the deal so far; ``seconds`` is
    the normal level's thinking budget per move in the 4-player game (the
    other levels and Japanese Joker take their share of it,
    ``budget_share``).

    ``asked_at`` (``time.time()`` when the move was asked for) counts a
    long wait for a free process against the budget (``budget_given``), so
    a pool that backs up makes the bot think less rather than the player
    wait longer; a bot out of time makes its first guess at once."""
    began = time.monotonic()
    full = seconds * budget_share(bot, state.rules.is_japanese)
    waited = 0.0 if asked_at is None else max(0.0, time.time() - asked_at)
    budget = budget_given(full, waited)
    player = IsmctsBot(budget=budget, rng=random.Random())
    action = player.choose(state, deal_actions)
    return Thought(
        action,
        round((time.monotonic() - began) * 1000),
        budget_ms=round(budget * 1000),
        cut_short=budget < full,
    )


def follow_server(server_pid: int) -> None:
    """Start a bot process: it ends as soon as the server that made it does,
    and only then. A process pool's workers outlive a server killed
    outright, and they keep the pool's fork server and resource tracker
    alive too. A stop signal sent to the server's whole process group (a
    Ctrl-C at a terminal, systemd, a group kill) is the server's to act on:
    a worker dying of it first broke the pool under the moves it was
    thinking, each then logged as a failed game task."""
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, signal.SIG_IGN)
    watcher = threading.Thread(
        target=_exit_with, args=(os.pidfd_open(server_pid),), daemon=True
    )
    watcher.start()


def _exit_with(server: int) -> None:
    select.select([server], [], [])  # readable once the server has exited
    os._exit(0)
