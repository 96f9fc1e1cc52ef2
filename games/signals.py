"""Signals other apps listen to, sent only after the change has committed."""

from django.dispatch import Signal

# A game stopped being played: finished, aborted or called off. Arguments:
# ``game_id`` and ``table_id``.
game_ended = Signal()
