"""Bots that play the Joker engine: the autopilot and a Monte Carlo bot.

``autopilot_action(state)`` is the platform's automatic move (timeouts and
leavers). ``MonteCarloBot`` is a stronger opponent; ``IsmctsBot``, the
practice bot, searches the card play by ISMCTS within a thinking budget per
move, set by its level. ``play_game`` runs a whole game between bots, for
tests and benchmarks. Nothing here needs more than the standard library.
"""

from .autopilot import autopilot_action
from .ismcts import LEVELS, IsmctsBot
from .montecarlo import MonteCarloBot
from .runner import play_game

__all__ = ["LEVELS", "IsmctsBot", "MonteCarloBot", "autopilot_action", "play_game"]
