"""A game's status, written once: the values ``Game.Status`` (and a table's
``Table.Status``) store, and the ones a live game holds in memory.

Plain strings with no Django, because a live game's steps are values that
know no database (``games.live.steps``, an import-linter contract) and still
carry the status the model stores.
"""

PLAYING = "playing"
FINISHED = "finished"
ABORTED = "aborted"
ANNULLED = "annulled"
