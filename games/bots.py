"""Which move a bot or the timer makes for a seat."""

from __future__ import annotations

import random

from django.conf import settings

from games.engine.actions import action_from_json
from games.engine.bots import MonteCarloBot, autopilot_action
from games.models import Game, GameEvent, Seat


def automatic_move(game: Game, state, seat: Seat):
    """The move for ``seat``, which is to move in ``state``.

    A practice bot thinks (Monte Carlo, told the public actions of the deal
    so far); a player who ran out of time or left gets the deterministic
    autopilot, as the rules require.
    """
    if seat.bot == Seat.Bot.PRACTICE:
        bot = MonteCarloBot(
            samples=settings.PULKA_PRACTICE_BOT_SAMPLES, rng=random.Random()
        )
        return bot.choose(state, current_deal_actions(game))
    return autopilot_action(state)


def current_deal_actions(game: Game) -> list:
    """The seat actions of the deal being played, in order."""
    events = game.events.order_by("-version").values_list("kind", "action")
    actions = []
    for kind, action in events:
        if kind == GameEvent.Kind.DEAL:
            break
        if kind == GameEvent.Kind.ACTION:
            actions.append(action_from_json(action))
    actions.reverse()
    return actions
