"""Which move a bot or the timer makes for a seat."""

from __future__ import annotations

import random

from django.conf import settings

from games.engine.bots import MonteCarloBot, autopilot_action
from games.models import Seat


def automatic_move(state, seat: Seat):
    """The move for ``seat``, which is to move in ``state``.

    A practice bot thinks (Monte Carlo); a player who ran out of time or left
    gets the deterministic autopilot, as the rules require.
    """
    if seat.bot == Seat.Bot.PRACTICE:
        bot = MonteCarloBot(
            samples=settings.PULKA_PRACTICE_BOT_SAMPLES, rng=random.Random()
        )
        return bot.choose(state)
    return autopilot_action(state)
