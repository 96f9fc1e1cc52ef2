"""The table's (playing, or waiting for its players) and the lobby's
WebSocket URLs, served with their chat (``chat.sockets``); mounted by
config/asgi.py."""

from chat.sockets import LobbySocket, TableSocket, WaitingTableSocket
from common.socket_routes import socket_path

websocket_urlpatterns = [
    socket_path("ws/games/<int:game_id>/", TableSocket.as_asgi()),
    socket_path("ws/tables/<int:table_id>/", WaitingTableSocket.as_asgi()),
    socket_path("ws/lobby/", LobbySocket.as_asgi()),
]
