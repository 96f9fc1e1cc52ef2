"""A socket's session and user, read as the socket opens: Channels'
middleware less what a socket does not need. The user is read by the
socket's own opening (``sockets.UserSocketMixin.websocket_connect``), so
that a database that cannot be reached closes the socket with a code
rather than raising out of the middleware.
"""

from __future__ import annotations

from channels.auth import AuthMiddleware, get_user
from channels.sessions import (
    CookieMiddleware,
    InstanceSessionWrapper,
    SessionMiddleware,
)
from django.utils.functional import empty

from common.database_threads import off_the_loop


class UserReadOnOpening(AuthMiddleware):
    """Channels' ``AuthMiddleware`` less its read of the user: the scope's
    ``user`` is left for the socket to read as it opens
    (``sockets.UserSocketMixin.websocket_connect``). Read here, a database that
    cannot be reached would raise out of the middleware, before any socket
    exists to close: the server's log would show an unhandled exception and
    the client an HTTP 500 instead of a close code it can read."""

    async def resolve_scope(self, scope):
        """Nothing read here: see the class."""


class SocketSession(SessionMiddleware):
    """Channels' ``SessionMiddleware`` without its wrapper of ``send``. The
    wrapper saves a changed session when an HTTP response starts, which a
    socket never sends; yet it asks the session whether it changed, through
    a lazy object, on every frame the socket sends: a tenth of a move's CPU
    on the server. The session is read as Channels reads it, by its cookie,
    when the socket first asks for it."""

    async def __call__(self, scope, receive, send):
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def SocketAuthStack(inner):  # noqa: N802 (named as Channels' AuthMiddlewareStack)
    """Channels' ``AuthMiddlewareStack``, the user read by the socket."""
    return CookieMiddleware(SocketSession(UserReadOnOpening(inner)))


async def read_user(scope) -> None:
    """Read the scope's user if nothing has yet (``UserReadOnOpening``)."""
    user = scope.get("user")
    if getattr(user, "_wrapped", None) is empty:
        # Channels' own reading, on the database threads rather than on the
        # one thread its decorator queues it on (common.database_threads);
        # its stubs type the decorated function, not the ``SyncToAsync``.
        read = get_user.func  # type: ignore[attr-defined]
        user._wrapped = await off_the_loop(read)(scope)
