"""The session and the user of a WebSocket, read once, at the handshake.

Channels' ``AuthMiddlewareStack`` puts the session in the scope through its
``SessionMiddleware``, which also wraps the socket's ``send``: every frame
the socket sends then goes through a check of whether the session changed
and should be saved, and a save is made only on an HTTP response, never on
a socket's frame. So for a socket the wrapper is work on every frame for
nothing. ``SocketSessionMiddleware`` puts the same session in the scope and
leaves ``send`` alone; a socket that changed its session would save it
itself, as under Channels (none of the site's does). The user is read
from the session once, by the socket as it opens
(``games.consumers.sockets.UserReadOnOpening``), so that a database that
cannot be reached then closes the socket with a code the client reads.
"""

from __future__ import annotations

from importlib import import_module

from channels.sessions import CookieMiddleware
from django.conf import settings

from games.consumers.sockets import UserReadOnOpening


class SocketSessionMiddleware:
    """The handshake's session in ``scope["session"]`` (loaded when first
    read, as Django's sessions are); ``send`` passed on as it is."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        store = import_module(settings.SESSION_ENGINE).SessionStore
        session_key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        return await self.inner({**scope, "session": store(session_key)}, receive, send)


def SocketAuthStack(inner):  # noqa: N802 (named as Channels' own stack)
    """The cookies, the session and the user, for a WebSocket."""
    return CookieMiddleware(SocketSessionMiddleware(UserReadOnOpening(inner)))
