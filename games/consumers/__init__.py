"""The site's WebSockets for live play (docs/protocol.md).

``sockets`` holds what every live socket shares (the message rate, the
frames read, the signed-in user's groups), and the other apps' sockets are
built on it too; ``table`` is a live table's socket, ``lobby`` the lobby's.
"""

from games.consumers.lobby import LobbyConsumer
from games.consumers.table import GameConsumer

__all__ = ["GameConsumer", "LobbyConsumer"]
