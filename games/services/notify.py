"""What is sent out after a commit: the lobby's refresh.

Called through ``transaction.on_commit`` only, so a rolled-back change is
never announced and no timer is set for it. A live game's own messages are
sent by its owner (``games.live``).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync

from common.channel_layer import channel_layer
from common.messages import encode
from games.ended import GameEnded
from games.messages import LobbyChanged, RematchChanged
from games.selectors import rematch_message

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def lobby_changed() -> None:
    """Tell the lobby pages to refresh their table list."""
    async_to_sync(channel_layer().group_send)(LOBBY_GROUP, encode(LobbyChanged()))


def lobby_on_game_end(ended: GameEnded) -> None:
    """Subscriber to ``games.ended``, after the commit: the lobby's list
    changed."""
    lobby_changed()


def rematch_group(game_id: int) -> str:
    """The channel group of the seated players' sockets at a game's table."""
    return f"rematch-{game_id}"


def rematch_changed(game_id: int) -> None:
    """Tell the players' sockets at the game's table where its rematch
    offer stands (``selectors.rematch_message``)."""
    message = encode(RematchChanged(rematch_message(game_id)))
    try:
        async_to_sync(channel_layer().group_send)(rematch_group(game_id), message)
    except Exception:  # Redis down: the change is committed; pages read it
        # again when they connect (``rematch_socket.join_rematch``).
        logger.warning("game %s: the rematch's sockets not told of a change", game_id)
