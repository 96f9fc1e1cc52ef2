"""WebSocket URL patterns of quick play, mounted by config/asgi.py."""

from common.socket_routes import socket_path
from matchmaking.consumers import QuickPlayConsumer

websocket_urlpatterns = [
    socket_path("ws/quickplay/", QuickPlayConsumer.as_asgi()),
]
