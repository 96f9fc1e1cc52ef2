"""WebSocket URL patterns of quick play, mounted by config/asgi.py."""

from django.urls import path

from matchmaking.consumers import QuickPlayConsumer

websocket_urlpatterns = [
    path("ws/quickplay/", QuickPlayConsumer.as_asgi()),
]
