"""ASGI entry point: Django over HTTP, Channels consumers over WebSocket.

Run with `uvicorn config.asgi:application` and the options of
``config.limits.uvicorn_limits()``: ``--no-proxy-headers`` among them, or
uvicorn believes X-Forwarded-For from anyone on 127.0.0.1 before the
application's own, settings-driven reading (config.forwarded) sees it.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

# Django must be set up before anything that imports models is loaded.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.forwarded import TrustedProxyHeaders  # noqa: E402
from config.liveness import Liveness  # noqa: E402
from config.origins import AllowedOriginsOnly  # noqa: E402
from config.unrouted import unrouted  # noqa: E402
from games.consumers.opening import SocketAuthStack  # noqa: E402
from games.live.lifespan import lifespan  # noqa: E402
from games.routing import websocket_urlpatterns as tables  # noqa: E402
from games.socket_limits import FloodGate  # noqa: E402
from matchmaking.routing import websocket_urlpatterns as quickplay  # noqa: E402
from social.routing import websocket_urlpatterns as me  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournaments  # noqa: E402


def socket_stack(router):
    """What every socket goes through before its route: the client's
    address, the page's origin, the session's pause for flooding, the
    session (the user read by the socket as it opens). The benchmarks serve
    their Channels echo through it too (benchmarks/live_tables.py)."""
    return TrustedProxyHeaders(AllowedOriginsOnly(FloodGate(SocketAuthStack(router))))


# Every request and socket first gets its client's address and scheme, as
# the trusted proxies forwarded them (PULKA_TRUSTED_PROXIES); the server's
# own reading of those headers is off (config.limits). A socket reads its
# session's user as it opens (SocketAuthStack), so that a database that
# cannot be reached closes it with a code rather than raising. The proxy's
# question whether the process lives is answered before all that
# (config.liveness).
application = ProtocolTypeRouter(
    {
        "http": Liveness(TrustedProxyHeaders(django_asgi_app)),
        "lifespan": lifespan,
        "websocket": socket_stack(
            URLRouter([*tables, *quickplay, *tournaments, *me, *unrouted])
        ),
    }
)
