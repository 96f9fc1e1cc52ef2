"""WebSocket URL patterns, mounted by config/asgi.py."""

websocket_urlpatterns: list = []
