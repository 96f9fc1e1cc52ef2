"""A practice bot's move, thought in a process of the bot pool.

Runs in a separate process (``hall.bot_pool``), so it takes only values
that pickle and imports nothing of Django.
"""

from __future__ import annotations

import random

from games.engine.bots import MonteCarloBot


def practice_move(state, deal_actions: list, samples: int):
    """The practice bot's choice for the seat to move in ``state``, told
    the public actions of the deal so far."""
    bot = MonteCarloBot(samples=samples, rng=random.Random())
    return bot.choose(state, deal_actions)
