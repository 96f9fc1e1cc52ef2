"""WebSocket URL patterns of the tournament pages, mounted by config/asgi.py."""

from common.socket_routes import socket_path
from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    socket_path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
