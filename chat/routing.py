"""The table's and the lobby's WebSocket URLs, served with their chat
(``chat.sockets``); mounted by config/asgi.py."""

from django.urls import path

from chat.sockets import LobbySocket, TableSocket

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", TableSocket.as_asgi()),
    path("ws/lobby/", LobbySocket.as_asgi()),
]
