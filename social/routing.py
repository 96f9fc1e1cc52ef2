"""WebSocket URL patterns of the social app, mounted by config/asgi.py."""

from common.socket_routes import socket_path
from social.consumers import MeConsumer

websocket_urlpatterns = [
    socket_path("ws/me/", MeConsumer.as_asgi()),
]
