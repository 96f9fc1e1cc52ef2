"""The site's WebSockets for live play (docs/protocol.md).

``sockets`` holds what every live socket shares (the message rate, the
frames read, the signed-in user's groups), and the other apps' sockets are
built on it too; ``table`` is a live table's socket, ``waiting`` a table's
while it waits for its players, ``lobby`` the lobby's.
"""

from games.consumers.lobby import LobbyConsumer
from games.consumers.table import GameConsumer
from games.consumers.waiting import WaitingTableConsumer

__all__ = ["GameConsumer", "LobbyConsumer", "WaitingTableConsumer"]
