"""A game's end, published once for every app that acts on it.

Every end of a game goes through its owner's last step (a game played to
its end, resigned, abandoned or timed out, called off by the operators, by
a tournament cancelled, or annulled while in play), which the journal
writes in one transaction (``games.live.journal.finish_sync``) and
publishes there as a ``GameEnded``. Annulling a game already over ends
nothing: it had ended, and was published, before.

Who subscribes (each from its app's ``AppConfig.ready``):

* in the transaction, with the game's last step: the stakes paid out or
  refunded and the game rated (``games.stakes.settle_ended``);
* after the commit: the lobby's list (``games.services.notify``) and the
  tournament the game belongs to (``tournaments.subscribers``).
"""

from __future__ import annotations

from dataclasses import dataclass

from common.bus import Topic
from games.models import Game


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A game stopped being played: ``finished`` when played to its end
    (its result is in), otherwise aborted (called off, nothing won).
    ``game`` is the row as read in the end's transaction, its table with
    it, for the subscribers there; the ones after the commit go by the
    ids."""

    game_id: int
    table_id: int
    finished: bool
    game: Game


game_ended: Topic[GameEnded] = Topic("game ended")
