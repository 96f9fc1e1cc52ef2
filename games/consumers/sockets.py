"""What every live socket shares: the message rate, the frames read, and
for a signed-in user the cap on sockets and the groups that end a socket
with its session.

Every socket of a signed-in user joins the groups ``user-<id>`` and
``session-<key>``, which carry the messages ``accounts.sockets.USER_MESSAGES``
declares; ``UserSocketMixin`` has a handler for each, so that every socket
built on it takes each one (Channels drops a socket sent a message it has no
handler for): on ``session.ended`` the socket closes (4401 signed out, 4403
banned), and ``chat.hidden`` matters only to a socket with a chat, which
handles it itself (``chat.consumers``). An
inactive (banned) user cannot connect. The table's, the lobby's, quick
play's, the tournaments' and the personal sockets are all built on the
mixins here.

A socket reads its user as it opens, with the rest of its opening
(``UserSocketMixin.websocket_connect``), so that a database that cannot be
reached meanwhile closes it the one way for every kind of socket: with
4503, "try again", and a one-line warning (the page's client reconnects
with its backoff).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import orjson
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.messages import USER, SessionEnded
from accounts.sockets import BANNED, CLOSE_FORBIDDEN, session_group, user_group
from common.channel_layer import SocketMixinBase, release_channel
from common.database_threads import off_the_loop
from common.messages import (
    RATE_LIMITED,
    ClientOut,
    Group,
    Pong,
    Refused,
    decode,
    encode,
)
from common.unavailable import DATABASE_UNAVAILABLE, first_line
from games import socket_limits
from games.consumers.opening import read_user

logger = logging.getLogger(__name__)

# Close codes (docs/protocol.md). RFC 6455 section 7.4.2 leaves 4000-4999 to
# applications; the last three digits echo the HTTP status of the refusal.
CLOSE_ANONYMOUS = 4401
CLOSE_NOT_FOUND = 4404
# The database could not be reached to open the socket: try again.
CLOSE_UNAVAILABLE = 4503


def _admit(user_id: int, channel_name: str, kind: str) -> tuple[bool, list[str]]:
    """Whether the user may connect (not banned), and the user's sockets
    of ``kind`` this one pushes over the limit (``socket_limits``)."""
    if not get_user_model().objects.filter(pk=user_id, is_active=True).exists():
        return False, []
    return True, socket_limits.socket_opened(user_id, channel_name, kind)


class DirectDispatchMixin:
    """Hand each message to its handler without Channels' connection sweep.

    Channels runs ``close_old_connections`` before every handler and as a
    socket ends, on the process's one thread of sync calls: a trip to that
    thread for every frame a player sends and every update and answer a
    socket passes on, queued behind whatever work the thread has. The
    consumers here
    never touch the database on the event loop; each of their database calls
    goes through ``common.database_threads.off_the_loop``, which closes
    stale connections itself, before and after the call.

    And when the consumer ends, its channel is let go in the channel layer
    (``release_channel`` says why Channels' loop does not always do it).
    """

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            await release_channel(
                getattr(self, "channel_layer", None),
                getattr(self, "channel_name", None),
            )

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message):
        """Channels' end of a socket, less its connection sweep (see the
        class). The consumers here join no group through ``groups``."""
        await self.disconnect(message["code"])
        raise StopConsumer()


class UserSocketMixin(SocketMixinBase):
    """What every live socket shares: the message rate, and for a signed-in
    user the cap on sockets and the groups that end a socket with its
    session (``accounts.sockets``, ``games.socket_limits``)."""

    # The kinds of group the socket joins: it handles every message each
    # carries (tests/test_socket_messages.py holds each kind of
    # socket to it). A class adds the groups it joins besides the user's.
    GROUPS: ClassVar[tuple[Group, ...]] = (USER,)
    user_groups: tuple[str, ...] = ()
    user_id: int | None = None
    # The password hash the session was signed in with (a new one ends it).
    password = ""
    message_rate: socket_limits.MessageRate | None = None
    accepted = False
    closing = False
    # Which of the user's counts of sockets this one takes a place in.
    socket_kind = "sockets"

    async def close(self, code=None, reason=None):
        """Close the socket, once: every close of this socket comes here.

        After ``websocket.close`` the ASGI server takes no other message
        from the application (uvicorn raises "Unexpected ASGI message ...
        after sending 'websocket.close'"), and several things may close one
        socket: the message rate, its session, its game's owner. The frames
        read before the close are still handed over until the server's
        ``websocket.disconnect``, and dropped unread (``websocket_receive``):
        past the rate, each would close the socket again."""
        if self.closing:
            return
        self.closing = True
        await super().close(code=code, reason=reason)

    async def send(self, text_data=None, bytes_data=None, close=False):
        """Send a frame, unless the socket is closing (see ``close``): a
        group message or an owner's update may come after the close. A send
        can also race the client's close, and the ASGI server then raises an
        OSError (uvicorn's ``ClientDisconnected``): the frame is dropped,
        and the ``websocket.disconnect`` that follows still ends the socket."""
        if self.closing:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except OSError:
            pass

    async def send_message(self, message: ClientOut) -> None:
        """Send one of the messages a socket sends (``common.messages``)."""
        await self.send_json(encode(message))

    async def refuse(self, code: int, reason: str = "") -> None:
        """Refuse a connection with a close code the client can read.

        A close before the handshake is accepted becomes an HTTP 403 (the
        ASGI server's answer), which a browser's WebSocket reports as a bare
        1006 whatever the reason: so the handshake is accepted and the
        socket closed at once, with the code of docs/protocol.md."""
        if self.closing:
            return
        if not self.accepted:
            await self.accept()
        await self.close(code=code, reason=reason)

    async def accept(self, subprotocol=None, headers=None):
        self.accepted = True
        await super().accept(subprotocol=subprotocol, headers=headers)

    async def websocket_connect(self, message):
        """Read the user and open the socket (the consumer's ``connect``).
        A database that cannot be reached on the way closes the socket with
        4503, whatever the step (the session, the user, the socket's own
        checks): the one place each kind of socket meets it, so that none
        raises out of its opening. The socket's ``disconnect`` then runs as
        after any refusal, and leaves what was joined."""
        try:
            await read_user(self.scope)
            await super().websocket_connect(message)
        except DATABASE_UNAVAILABLE as error:
            logger.warning(
                "socket %s: closed with %s, the database is unavailable (%s)",
                self.scope.get("path"),
                CLOSE_UNAVAILABLE,
                first_line(error),
            )
            await self.refuse(CLOSE_UNAVAILABLE, "database unavailable")

    async def websocket_receive(self, message):
        if self.closing:
            return  # a frame that came before the close: dropped unread
        if self.message_rate is None:
            self.message_rate = socket_limits.MessageRate()
        verdict = self.message_rate.verdict()
        if verdict == "pass":
            await super().websocket_receive(message)
        elif verdict == "warn":
            await self.send_message(RATE_LIMITED)
        elif verdict == "close":
            await socket_limits.pause_session(self.session_key)
            await self.close(
                code=socket_limits.CLOSE_TOO_MANY_MESSAGES,
                reason="too many messages",
            )

    async def open_signed_in(
        self, before_accept: Callable[[object], Awaitable[bool]] | None = None
    ) -> bool:
        """Open a signed-in user's socket: an anonymous one is refused
        (4401), so is a banned one (``join_user_group``), and the rest
        accepted once ``before_accept(user)`` (the socket's own checks and
        groups, if it has any) has said yes. False when the socket was
        refused (closed)."""
        user = self.scope["user"]
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_ANONYMOUS, "not signed in")
            return False
        if not await self.join_user_group(user):
            return False
        if before_accept is not None and not await before_accept(user):
            return False
        await self.accept()
        return True

    async def join_user_group(self, user) -> bool:
        """Join the user's and the session's groups; False (and the socket
        closed) when the user is banned. The groups are joined before the
        account is read, so a ban committed meanwhile is either seen here or
        heard there."""
        session_key = self.session_key
        self.user_groups = (user_group(user.pk),) + (
            (session_group(session_key),) if session_key else ()
        )
        for group in self.user_groups:
            await self.channel_layer.group_add(group, self.channel_name)
        # One small query per connection (common.database_threads).
        admitted = False
        too_many: list[str] = []
        if user.is_active:
            admitted, too_many = await off_the_loop(_admit)(
                user.pk, self.channel_name, self.socket_kind
            )
        if not admitted:
            await self.refuse(CLOSE_FORBIDDEN, BANNED)
            return False
        self.user_id, self.password = user.pk, user.password
        for channel in too_many:
            ended = SessionEnded(
                socket_limits.CLOSE_TOO_MANY_SOCKETS, "too many sockets"
            )
            await self.channel_layer.send(channel, encode(ended))
        return True

    async def leave_user_group(self):
        """Leave the groups and the count of the user's sockets, as far as
        Redis answers: a socket closing while it is down still closes."""
        groups, self.user_groups = self.user_groups, ()
        user_id, self.user_id = self.user_id, None
        for group in groups:
            await self.leave_group(group)
        if user_id is not None:
            try:
                await off_the_loop(socket_limits.socket_closed)(
                    user_id, self.channel_name, self.socket_kind
                )
            except Exception:
                # A count left behind is forgotten a day on (socket_limits).
                logger.warning(
                    "socket %s: Redis not told of its close", self.channel_name
                )

    async def leave_group(self, group: str | None) -> bool:
        """Leave a channel-layer group (None: none to leave), as far as
        Redis answers: the one way a closing socket leaves its groups, so
        that a socket closing while Redis is down still closes. False (and
        a warning) when Redis did not answer: the layer forgets a group's
        channel before it tells Redis, and Redis forgets it with the
        group's expiry."""
        if group is None:
            return True
        try:
            await self.channel_layer.group_discard(group, self.channel_name)
        except Exception:
            logger.warning(
                "socket %s: Redis not told it left %s", self.channel_name, group
            )
            return False
        return True

    @property
    def session_key(self) -> str | None:
        session = self.scope.get("session")
        return session.session_key if session is not None else None

    # A handler for each of accounts.messages.USER's messages.

    async def session_ended(self, event):
        ended = decode(SessionEnded, event)
        await self.close(code=ended.code, reason=ended.reason)

    async def chat_hidden(self, event):
        """The user muted or unmuted someone: nothing to a socket without a
        chat (a socket with one reads again whom its reader hides)."""


class FrameError(Refused):
    """A frame that is not a message: ``code`` is its error code (answered
    with the one ``error``, naming no id)."""

    def __init__(self, code: str, message: str):
        super().__init__(None, message, code)
        self.message = message


def read_frame(text_data: str | None, bytes_data: bytes | None) -> dict:
    """The message a frame carries: a JSON object with a text ``type``, in a
    text or a binary frame of at most ``PULKA_MAX_FRAME_BYTES``. Raises
    ``FrameError`` (``too_large``, ``bad_json``, ``bad_message``) for
    anything else; nothing a client sends raises another error here."""
    raw = text_data if text_data is not None else bytes_data
    if raw is None or _size(raw) > settings.PULKA_MAX_FRAME_BYTES:
        raise FrameError("too_large", "the message is too large")
    try:
        # orjson refuses brackets nested past 1024 deep (where the standard
        # library's parser would overflow the stack with a RecursionError)
        # and numbers no double holds, as not JSON.
        message = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise FrameError("bad_json", "the message is not JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise FrameError("bad_message", "a message is an object with a type")
    return message


def _size(raw: str | bytes) -> int:
    """A frame's size in bytes (the limit is in bytes, not characters)."""
    if isinstance(raw, str):
        return len(raw.encode("utf-8", "surrogatepass"))
    return len(raw)


class PongToEveryFrameMixin(SocketMixinBase):
    """A socket that carries news one way: the page's frames are its
    keep-alive pings, and every frame, whatever it holds (text, binary, not
    JSON at all), is answered with ``{"type": "pong"}`` unread, as
    docs/protocol.md says of the lobby's and the tournaments' sockets. Not
    reading it, the socket has nothing a frame could break."""

    async def receive(
        self,
        text_data: str | None = None,
        bytes_data: bytes | None = None,
        **kwargs: Any,
    ) -> None:
        await self.send_json(encode(Pong()))
