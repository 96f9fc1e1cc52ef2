"""Reviews of finished games: for each decision of a seat (naming trump,
bids, cards, jokers' modes), the expected result of every legal choice
judged only from what that seat knew then, the best one, and what the
choice lost, with a 95 % interval; graded only beyond the estimate's
noise. Built on the practice bot's public pieces (``DealSampler`` and the
compiled ``Playouts``); never on the real hidden cards, but for the
hindsight view of the last tricks, which is kept apart.

``review_game(record, seat)`` reviews a game record (RECORD.md);
``review_decision(state, deal_actions, action)`` one decision. What a
review is, its units, grades and accuracy: docs/review.md.
"""

from .decision import (
    DEFAULT_DEALS,
    HINDSIGHT_TRICKS,
    Alternative,
    Decision,
    review_decision,
)
from .game import REVIEW_VERSION, GameReview, Summary, review_game, version
from .stats import GRADES

__all__ = [
    "DEFAULT_DEALS",
    "GRADES",
    "HINDSIGHT_TRICKS",
    "REVIEW_VERSION",
    "Alternative",
    "Decision",
    "GameReview",
    "Summary",
    "review_decision",
    "review_game",
    "version",
]
