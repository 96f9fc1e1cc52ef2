"""The games' WebSocket URLs (docs/protocol.md): a live table's, a table's
while it waits for its players, and the lobby's; mounted by config/asgi.py.

What rides on them beside the game (the chat) is added by its app
(``games.consumers.riders``): imported once every app is ready, as
config/asgi.py imports it.
"""

from common.socket_routes import socket_path
from games.consumers import GameConsumer, LobbyConsumer, WaitingTableConsumer
from games.consumers.riders import LOBBY, TABLE, WAITING, served

TableSocket = served("TableSocket", TABLE, GameConsumer)
WaitingTableSocket = served("WaitingTableSocket", WAITING, WaitingTableConsumer)
LobbySocket = served("LobbySocket", LOBBY, LobbyConsumer)

websocket_urlpatterns = [
    socket_path("ws/games/<int:game_id>/", TableSocket.as_asgi()),
    socket_path("ws/tables/<int:table_id>/", WaitingTableSocket.as_asgi()),
    socket_path("ws/lobby/", LobbySocket.as_asgi()),
]
