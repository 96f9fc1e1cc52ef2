"""The Joker rules engine: pure Python, no web framework.

Typical use::

    rules = make_rules("georgian-club", {"pairs": True})
    state = new_game(rules, first_dealer=0)
    state = apply(state, deal_cards(state))     # the chance action
    for action in legal_actions(state): ...
    state = apply(state, action)
"""

from .actions import Action, Bid, Deal, NameTrump, PlayCard, Rejoin, Resign
from .errors import (
    BadDeal,
    BadRecord,
    EngineError,
    IllegalAction,
    WrongAction,
    WrongSeat,
)
from .game import apply, legal_actions
from .rules import PROFILES, Rules, make_rules
from .state import State, new_game

__all__ = [
    "PROFILES",
    "Action",
    "BadDeal",
    "BadRecord",
    "Bid",
    "Deal",
    "EngineError",
    "IllegalAction",
    "NameTrump",
    "PlayCard",
    "Rejoin",
    "Resign",
    "Rules",
    "State",
    "WrongAction",
    "WrongSeat",
    "apply",
    "legal_actions",
    "make_rules",
    "new_game",
]
