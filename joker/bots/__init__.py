"""Bots that play the Joker engine: the autopilot and two searching bots.

``autopilot_action(state)`` is the platform's automatic move (timeouts and
leavers). ``IsmctsBot``, the practice bot, compares its trump, bids and
cards on sampled deals played out in the compiled core (``core``) within a
thinking budget per move, set by its level. ``MonteCarloBot`` (flat Monte
Carlo over string-based playouts) is the older bot the practice bot is
measured against. ``play_game`` runs a
whole game between bots, for tests and benchmarks. Besides the standard
library, only the core needs building (``pip install -e .``).
"""

from .autopilot import autopilot_action
from .ismcts import LEVELS, IsmctsBot
from .montecarlo import MonteCarloBot
from .runner import play_game

__all__ = ["LEVELS", "IsmctsBot", "MonteCarloBot", "autopilot_action", "play_game"]
