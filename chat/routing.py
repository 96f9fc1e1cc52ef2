"""The table's (playing, or waiting for its players) and the lobby's
WebSocket URLs, served with their chat (``chat.sockets``); mounted by
config/asgi.py."""

from django.urls import path

from chat.sockets import LobbySocket, TableSocket, WaitingTableSocket

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", TableSocket.as_asgi()),
    path("ws/tables/<int:table_id>/", WaitingTableSocket.as_asgi()),
    path("ws/lobby/", LobbySocket.as_asgi()),
]
