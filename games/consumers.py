"""The live table over WebSocket: parse, hand to the game's owner.

A table's socket attaches to its game's owner (``games.live``), in this
process or another: the owner sends it everything about the game, each
message built for the socket's audience (its seat, or the spectators). The
protocol is written down in docs/protocol.md.

Every socket of a signed-in user also joins the groups ``user-<id>`` and
``session-<key>``, which carry one message: ``session.ended``, on which the
socket closes (4401 signed out, 4403 banned; ``accounts.sockets``). An
inactive (banned) user cannot connect. That message may be lost with
Redis, so while Redis is in doubt a table socket also reads the session
from the database before it passes a move on, and closes instead if the
session has ended.
"""

from __future__ import annotations

import logging
import time

import orjson
import psycopg
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.sockets import (
    BANNED,
    CLOSE_FORBIDDEN,
    retries,
    session_ended,
    session_group,
    user_group,
)
from chat.consumers import CHAT_TYPES, ChatSocketMixin
from chat.selectors import LOBBY, table_room
from games import selectors, socket_limits
from games.live.broadcast import encode
from games.live.hall import hall
from games.rematch_socket import RematchSocketMixin
from games.services.notify import LOBBY_GROUP

logger = logging.getLogger(__name__)

# Close codes (docs/protocol.md). RFC 6455 section 7.4.2 leaves 4000-4999 to
# applications; the last three digits echo the HTTP status of the refusal.
CLOSE_ANONYMOUS = 4401
CLOSE_NOT_FOUND = 4404
# How often a socket's pings are passed on to its game's owner.
HEARD_EVERY_SECONDS = 2.0


def _admit(user_id: int, channel_name: str, kind: str) -> tuple[bool, list[str]]:
    """Whether the user may connect (not banned), and the user's sockets
    of ``kind`` this one pushes over the limit (``socket_limits``)."""
    if not get_user_model().objects.filter(pk=user_id, is_active=True).exists():
        return False, []
    return True, socket_limits.socket_opened(user_id, channel_name, kind)


class DirectDispatchMixin:
    """Hand each message to its handler without Channels' connection sweep.

    Channels runs ``close_old_connections`` before every handler, on the
    process's one thread of sync calls: a trip to that thread for every
    frame a player sends and every update and answer a socket passes on,
    queued behind whatever database work the thread has. The consumers here
    never touch the database on the event loop; each of their database calls
    goes through ``database_sync_to_async``, which closes stale connections
    itself, before and after the call.
    """

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class UserSocketMixin:
    """What every live socket shares: the message rate, and for a signed-in
    user the cap on sockets and the groups that end a socket with its
    session (``accounts.sockets``, ``games.socket_limits``)."""

    user_groups: tuple[str, ...] = ()
    user_id: int | None = None
    # The password hash the session was signed in with (a new one ends it).
    password = ""
    message_rate: socket_limits.MessageRate | None = None
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
        group message or an owner's update may come after the close."""
        if self.closing:
            return
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def refuse(self, code: int, reason: str = "") -> None:
        """Refuse a connection with a close code the client can read.

        A close before the handshake is accepted becomes an HTTP 403 (the
        ASGI server's answer), which a browser's WebSocket reports as a bare
        1006 whatever the reason: so the handshake is accepted and the
        socket closed at once, with the code of docs/protocol.md."""
        await self.accept()
        await self.close(code=code, reason=reason)

    async def websocket_receive(self, message):
        if self.closing:
            return  # a frame that came before the close: dropped unread
        if self.message_rate is None:
            self.message_rate = socket_limits.MessageRate()
        verdict = self.message_rate.verdict()
        if verdict == "pass":
            await super().websocket_receive(message)
        elif verdict == "warn":
            await self.send_json(
                {
                    "type": "error",
                    "id": None,
                    "code": "rate_limited",
                    "message": "too many messages: this one and any more "
                    "until the rate falls are dropped",
                }
            )
        elif verdict == "close":
            await socket_limits.pause_session(self.session_key)
            await self.close(
                code=socket_limits.CLOSE_TOO_MANY_MESSAGES,
                reason="too many messages",
            )

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
        # Read where the session was read (the one thread of sync calls):
        # one small query per connection, and no connection left behind on
        # a pool thread that may not run again.
        admitted, too_many = False, []
        if user.is_active:
            admitted, too_many = await database_sync_to_async(_admit)(
                user.pk, self.channel_name, self.socket_kind
            )
        if not admitted:
            await self.refuse(CLOSE_FORBIDDEN, BANNED)
            return False
        self.user_id, self.password = user.pk, user.password
        for channel in too_many:
            await self.channel_layer.send(
                channel,
                {
                    "type": "session.ended",
                    "code": socket_limits.CLOSE_TOO_MANY_SOCKETS,
                    "reason": "too many sockets",
                },
            )
        return True

    async def leave_user_group(self):
        """Leave the groups and the count of the user's sockets, as far as
        Redis answers: a socket closing while it is down still closes."""
        groups, self.user_groups = self.user_groups, ()
        user_id, self.user_id = self.user_id, None
        untidy = False
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:
                untidy = True
        if user_id is not None:
            try:
                await database_sync_to_async(socket_limits.socket_closed)(
                    user_id, self.channel_name, self.socket_kind
                )
            except Exception:
                untidy = True
        if untidy:
            # The layer forgets a group's channel before it tells Redis; a
            # count left behind is forgotten a day on (socket_limits).
            logger.warning("socket %s: Redis not told of its close", self.channel_name)

    @property
    def session_key(self) -> str | None:
        session = self.scope.get("session")
        return session.session_key if session is not None else None

    async def session_ended(self, event):
        await self.close(code=event["code"], reason=event["reason"])


class GameConsumer(
    DirectDispatchMixin,
    UserSocketMixin,
    ChatSocketMixin,
    RematchSocketMixin,
    AsyncJsonWebsocketConsumer,
):
    """One socket at a live table: parse, hand to the game's owner.

    Everything the socket is sent about the game (syncs, updates, presence,
    answers) comes from the owner (``games.live``), in this process or
    through the channel layer (``table_text``). The table's chat does not go
    through the owner: ``chat.consumers`` saves and fans it out. The rematch
    of a finished game is the socket's own business (``RematchSocketMixin``).
    """

    game_id: int
    seat: int | None = None
    attached = False
    heard_told_at = 0.0

    async def connect(self):
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.refuse(CLOSE_ANONYMOUS, "not signed in")
            return
        if not await self.join_user_group(user):
            return
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        access = await database_sync_to_async(selectors.game_access)(self.game_id, user)
        if access is None:
            await self.refuse(CLOSE_NOT_FOUND, "no such game")
            return
        if not access.may_watch:
            await self.refuse(CLOSE_FORBIDDEN, "private table")
            return
        self.seat = access.seat
        await self.accept()
        # The relay takes the socket's messages to its game's owner, in this
        # process or another.
        self.relay = (await hall()).relay
        self.attached = await self.relay.attach(self.game_id, self, self.seat, None)
        if not self.attached:
            await self.send_stored_sync(None)
        await self.chat_join(table_room(self.game_id, self.seat), user.pk)
        await self.join_rematch()

    async def disconnect(self, code):
        try:
            await self.chat_leave()
            await self.leave_user_group()
        finally:
            if self.attached:
                self.attached = False
                await self.relay.detach(self.game_id, self)
            await self.leave_rematch()

    async def receive(self, text_data=None, bytes_data=None):
        # Parsed here rather than in receive_json, so that a malformed frame
        # gets an error message instead of closing the socket.
        try:
            message = read_frame(text_data, bytes_data)
        except FrameError as error:
            await self.send_error(None, error.code, error.message)
            return
        handler = self.HANDLERS.get(message["type"])
        if handler is None:
            await self.send_error(
                _an_id(message), "unknown_type", f"unknown type {message['type']!r}"
            )
            return
        await handler(self, message)

    # Client messages

    async def on_ping(self, message):
        await self.send_json({"type": "pong"})
        # The owner needs to hear of the socket well within its silence
        # limit, not of every ping: it may be in another process.
        now = time.monotonic()
        if now - self.heard_told_at >= HEARD_EVERY_SECONDS:
            self.heard_told_at = now
            await self.tell_owner({"kind": "heard"})

    async def on_sync(self, message):
        since = message.get("version")
        if since is not None and type(since) is not int:
            await self.send_error(None, "bad_message", "'version' must be an integer")
            return
        if self.attached:
            await self.tell_owner({"kind": "sync", "since": since})
        else:
            await self.send_stored_sync(since)

    async def on_action(self, message):
        client_id, version = message.get("id"), message.get("version")
        if not _valid_id(client_id) or type(version) is not int:
            await self.send_error(
                _an_id(message),
                "bad_message",
                "an action needs a string 'id' and a 'version'",
            )
            return
        await self.play(
            client_id,
            {"kind": "action", "id": client_id, "version": version,
             "action": message.get("action")},
        )  # fmt: skip

    async def on_resign(self, message):
        await self.play(_an_id(message), {"kind": "resign", "id": _an_id(message)})

    async def on_abort(self, message):
        await self.play(_an_id(message), {"kind": "abort", "id": _an_id(message)})

    async def on_chat_frame(self, message):
        await self.chat_receive(message)

    HANDLERS = {
        "ping": on_ping,
        "sync": on_sync,
        "action": on_action,
        "resign": on_resign,
        "abort": on_abort,
        **dict.fromkeys(CHAT_TYPES, on_chat_frame),
        "rematch": RematchSocketMixin.on_rematch,
        "rematch_decline": RematchSocketMixin.on_rematch_decline,
    }

    async def play(self, message_id, command: dict):
        if self.seat is None:
            await self.send_error(message_id, "not_allowed", "spectators cannot play")
            return
        if not self.attached:
            await self.send_error(message_id, "not_playing", "the game is over")
            return
        if not await self.still_signed_in(message_id):
            return
        await self.tell_owner(command)

    async def still_signed_in(self, message_id) -> bool:
        """Whether the session still holds; if it has ended the socket
        closes as it would on hearing so. While Redis answers, the close a
        logout sends reaches the socket at once, and that is enough: reading
        the session for every move would double a move's work on the server
        (benchmarks/live_tables.py). While Redis does not, or did not
        lately, or a notice of this process waits to be sent again, the
        close may be lost or late, so the session is read from the
        database."""
        if self.relay.hall.trusts_redis() and not retries.pending:
            return True
        try:
            ended = await session_ended(
                self.relay.hall.journal.pool,
                session_key=self.session_key,
                user_id=self.user_id,
                password=self.password,
            )
        except psycopg.Error:
            await self.send_error(
                message_id,
                "unavailable",
                "the game could not be saved just now: send your move again",
            )
            return False
        if ended is None:
            return True
        code, reason = ended
        await self.close(code=code, reason=reason)
        return False

    async def tell_owner(self, command: dict):
        if self.attached:
            await self.relay.command(self.game_id, self.channel_name, command)

    # Server messages

    async def send_stored_sync(self, since):
        """A sync read from the database, for a game nobody owns (over)."""
        data = await database_sync_to_async(selectors.sync_message)(
            self.game_id, self.seat, since
        )
        await self.send_json(data)

    async def send_json(self, content, close=False):
        await self.send_text(encode(content), close=close)

    async def send_text(self, text: str, close=False):
        # A send can race the client's close; the ASGI server then raises an
        # OSError. Let it pass: the websocket.disconnect that follows must
        # still reach disconnect().
        try:
            await self.send(text_data=text, close=close)
        except OSError:
            pass

    async def send_error(self, client_id, code: str, message: str):
        await self.send_json(
            {"type": "error", "id": client_id, "code": code, "message": message}
        )

    async def table_text(self, event):
        """A message from the game's owner in another process."""
        await self.send_text(event["text"])

    async def table_close(self, event):
        await self.close(code=event["code"])


class FrameError(Exception):
    """A frame that is not a message: ``code`` is its error code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


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


def _an_id(message: dict):
    """The message's id if it is a valid one (an error names it), else None."""
    value = message.get("id")
    return value if _valid_id(value) else None


def _size(raw: str | bytes) -> int:
    """A frame's size in bytes (the limit is in bytes, not characters)."""
    if isinstance(raw, str):
        return len(raw.encode("utf-8", "surrogatepass"))
    return len(raw)


def _valid_id(value) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 64


class PongToEveryFrameMixin:
    """A socket that carries news one way: the page's frames are its
    keep-alive pings, and every frame, whatever it holds (text, binary, not
    JSON at all), is answered with ``{"type": "pong"}`` unread, as
    docs/protocol.md says of the lobby's and the tournaments' sockets. Not
    reading it, the socket has nothing a frame could break."""

    async def receive(self, text_data=None, bytes_data=None):
        await self.send_json({"type": "pong"})


class LobbyConsumer(
    DirectDispatchMixin,
    UserSocketMixin,
    ChatSocketMixin,
    AsyncJsonWebsocketConsumer,
):
    """Tells lobby pages to refresh their table list when it changes, and
    carries the lobby's chat.

    Open to everybody (anonymous visitors read the chat, signed-in users
    write in it); a signed-in user's socket also joins the user's group.
    """

    async def connect(self):
        user = self.scope["user"]
        if user.is_authenticated and not await self.join_user_group(user):
            return
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.chat_join(LOBBY, user.pk if user.is_authenticated else None)

    async def disconnect(self, code):
        await self.chat_leave()
        await self.leave_user_group()
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """A chat message (``CHAT_TYPES``) goes to the chat; every other
        frame, whatever it holds, is a keep-alive answered with a pong, as
        before there was a chat."""
        try:
            message = read_frame(text_data, bytes_data)
        except FrameError:
            message = None
        if message is not None and message["type"] in CHAT_TYPES:
            await self.chat_receive(message)
        else:
            await self.send_json({"type": "pong"})

    async def lobby_changed(self, event):
        await self.send_json({"type": "lobby"})
