"""ASGI entry point: Django over HTTP, Channels consumers over WebSocket.

Run with `uvicorn config.asgi:application`.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

# Django must be set up before anything that imports models is loaded.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.origins import AllowedOriginsOnly  # noqa: E402
from games.live.lifespan import lifespan  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from games.socket_limits import FloodGate  # noqa: E402
from matchmaking.routing import websocket_urlpatterns as quickplay  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournaments  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "lifespan": lifespan,
        "websocket": AllowedOriginsOnly(
            FloodGate(
                AuthMiddlewareStack(
                    URLRouter(websocket_urlpatterns + quickplay + tournaments)
                )
            )
        ),
    }
)
