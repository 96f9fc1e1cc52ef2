"""The live table over WebSocket: parse, call a service, answer.

Each connection joins one group: its seat's group, or the spectators' group,
so every message it receives was built for exactly its seat (see
``games.selectors.snapshot``). The protocol is written down in
docs/protocol.md.

Every socket of a signed-in user also joins the groups ``user-<id>`` and
``session-<key>``, which carry one message: ``session.ended``, on which the
socket closes (4401 signed out, 4403 banned); every action first checks
that the session still holds (``accounts.sockets``). An inactive (banned)
user cannot connect.
"""

from __future__ import annotations

import asyncio
import json
import time

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.sockets import (
    BANNED,
    CLOSE_FORBIDDEN,
    session_group,
    still_signed_in,
    user_group,
)
from config.errors import ApplicationError
from games import selectors, services, socket_limits
from games.services import notify
from games.services.notify import LOBBY_GROUP, seat_group, spectator_group

# An action's answer follows the update it caused (docs/protocol.md); should
# that update never reach the socket, the answer goes out after this long.
ACK_WAIT_SECONDS = 2.0

CLOSE_ANONYMOUS = 4401
CLOSE_NOT_FOUND = 4404


def _admit(user_id: int, channel_name: str) -> tuple[bool, list[str]]:
    """Whether the user may connect (not banned), and the user's sockets
    this one pushes over the limit (``socket_limits``)."""
    if not get_user_model().objects.filter(pk=user_id, is_active=True).exists():
        return False, []
    return True, socket_limits.socket_opened(user_id, channel_name)


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
    opened_at: float = 0.0
    message_rate: socket_limits.MessageRate | None = None

    async def websocket_receive(self, message):
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
        self.opened_at = time.time()
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
                user.pk, self.channel_name
            )
        if not admitted:
            await self.close(code=CLOSE_FORBIDDEN, reason=BANNED)
            return False
        self.user_id = user.pk
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
        for group in self.user_groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.user_groups = ()
        if self.user_id is not None:
            await database_sync_to_async(socket_limits.socket_closed)(
                self.user_id, self.channel_name
            )
            self.user_id = None

    @property
    def session_key(self) -> str | None:
        session = self.scope.get("session")
        return session.session_key if session is not None else None

    def signed_in_still(self) -> bool:
        """(Sync.) Whether this socket's session may still act."""
        return still_signed_in(self.session_key, self.scope["user"].pk, self.opened_at)

    async def session_ended(self, event):
        await self.close(code=event["code"], reason=event["reason"])


class GameConsumer(DirectDispatchMixin, UserSocketMixin, AsyncJsonWebsocketConsumer):
    game_id: int
    seat: int | None = None
    group: str | None = None
    # The newest game version passed on to this socket (in a sync or an
    # update), and the answer to an action that waits for its update.
    version_sent: int = -1
    held_ack: dict | None = None
    held_ack_timer: asyncio.TimerHandle | None = None

    async def connect(self):
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.close(code=CLOSE_ANONYMOUS)
            return
        if not await self.join_user_group(user):
            return
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        access = await database_sync_to_async(selectors.game_access)(self.game_id, user)
        if access is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if not access.may_watch:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.seat = access.seat
        if self.seat is None:
            self.group = spectator_group(self.game_id)
        else:
            self.group = seat_group(self.game_id, self.seat)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        if self.seat is not None:
            await database_sync_to_async(services.seat_connected)(
                game_id=self.game_id, seat=self.seat
            )
        await self.send_sync(since=None)

    async def disconnect(self, code):
        if self.held_ack_timer is not None:
            self.held_ack_timer.cancel()
        await self.leave_user_group()
        if self.group is None:
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seat is not None:
            await database_sync_to_async(services.seat_disconnected)(
                game_id=self.game_id, seat=self.seat
            )

    async def receive(self, text_data=None, bytes_data=None):
        # Parsed here rather than in receive_json, so that a malformed frame
        # gets an error message instead of closing the socket.
        raw = text_data if text_data is not None else bytes_data
        if raw is None or _size(raw) > settings.PULKA_MAX_FRAME_BYTES:
            await self.send_error(None, "too_large", "the message is too large")
            return
        try:
            message = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            await self.send_error(None, "bad_json", "the message is not JSON")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.send_error(
                None, "bad_message", "a message is an object with a type"
            )
            return
        handler = self.HANDLERS.get(message["type"])
        if handler is None:
            await self.send_error(
                message.get("id"), "unknown_type", f"unknown type {message['type']!r}"
            )
            return
        await handler(self, message)

    # Client messages

    async def on_ping(self, message):
        await self.send_json({"type": "pong"})

    async def on_sync(self, message):
        since = message.get("version")
        if since is not None and type(since) is not int:
            await self.send_error(None, "bad_message", "'version' must be an integer")
            return
        await self.send_sync(since=since)

    async def on_action(self, message):
        client_id, version = message.get("id"), message.get("version")
        if not _valid_id(client_id) or type(version) is not int:
            await self.send_error(
                client_id,
                "bad_message",
                "an action needs a string 'id' and a 'version'",
            )
            return
        await self.call(
            client_id,
            services.game_act,
            game_id=self.game_id,
            user=self.scope["user"],
            action=message.get("action"),
            expected_version=version,
            client_id=client_id,
        )

    async def on_resign(self, message):
        await self.call(
            message.get("id"),
            services.game_resign,
            game_id=self.game_id,
            user=self.scope["user"],
        )

    async def on_abort(self, message):
        await self.call(
            message.get("id"),
            services.game_abort,
            game_id=self.game_id,
            user=self.scope["user"],
        )

    HANDLERS = {
        "ping": on_ping,
        "sync": on_sync,
        "action": on_action,
        "resign": on_resign,
        "abort": on_abort,
    }

    # Server messages

    async def call(self, message_id, service, /, **kwargs):
        # message_id is positional-only: game_act takes a client_id keyword.
        if self.seat is None:
            await self.send_error(message_id, "not_allowed", "spectators cannot play")
            return
        try:
            # Off the process's one thread of sync calls: moves of different
            # games then overlap their waits on the database, and one game's
            # moves still go one at a time under its row lock.
            answer, sends = await database_sync_to_async(
                _keeping_sends(service, self.signed_in_still), thread_sensitive=False
            )(**kwargs)
        except ApplicationError as error:
            await self.send_error(message_id, error.code, str(error))
            if error.code == SIGNED_OUT:
                await self.close(code=CLOSE_ANONYMOUS, reason="signed out")
            return
        # This socket's own update first, straight from here; then the
        # answer; then the broadcast, whose copy of that update this socket
        # drops (table_message).
        for group, message in sends:
            if group == self.group and message and message["type"] == "update":
                await self.send_state(message)
        await self.answer(message_id, answer)
        await notify.publish(sends)

    async def answer(self, message_id, answer: dict | None):
        """Send the answer to an action after the update it caused."""
        ack = {"type": "ack", "id": message_id, **(answer or {})}
        version = ack.get("version")
        if version is not None and version > self.version_sent:
            # The update of that version is on its way to this socket through
            # the seat's group: the answer follows right behind it.
            await self.hold_ack(ack)
        else:
            # Its update, if any, is already out (an abort's answer names no
            # version; its update went out just before, from call()).
            await self.send_json(ack)

    async def hold_ack(self, ack: dict):
        await self.release_ack()
        self.held_ack = ack
        self.held_ack_timer = asyncio.get_running_loop().call_later(
            ACK_WAIT_SECONDS, lambda: asyncio.ensure_future(self.release_ack())
        )

    async def release_ack(self):
        """Send the answer being held, if any."""
        ack, self.held_ack = self.held_ack, None
        if self.held_ack_timer is not None:
            self.held_ack_timer.cancel()
            self.held_ack_timer = None
        if ack is not None:
            await self.send_json(ack)

    async def send_json(self, content, close=False):
        # A broadcast can race the client's close; the ASGI server then raises
        # an OSError. Let it pass: the websocket.disconnect that follows must
        # still reach disconnect(), or the seat would stay connected for good.
        try:
            await super().send_json(content, close=close)
        except OSError:
            pass

    async def send_sync(self, since):
        data = await database_sync_to_async(selectors.sync_message)(
            self.game_id, self.seat, since
        )
        await self.send_state(data)

    async def send_state(self, message: dict):
        """Pass on a sync or an update, then any answer that waited for it."""
        await self.send_json(message)
        self.version_sent = max(self.version_sent, message["version"])
        if self.held_ack is not None and self.held_ack["version"] <= self.version_sent:
            await self.release_ack()

    async def send_error(self, client_id, code: str, message: str):
        await self.send_json(
            {"type": "error", "id": client_id, "code": code, "message": message}
        )

    async def table_message(self, event):
        message = event["message"]
        if message["type"] == "update":
            if message["version"] <= self.version_sent:
                return  # already passed on: this socket's own move
            await self.send_state(message)
        else:
            await self.send_json(message)


# The error code of an action sent after its session ended.
SIGNED_OUT = "signed_out"


def _keeping_sends(service, signed_in_still):
    """``service`` returning its answer and the broadcasts it kept back;
    refused, with nothing done, once the socket's session has ended."""

    def call(**kwargs):
        if not signed_in_still():
            raise ApplicationError(
                "you have signed out: sign in again", code=SIGNED_OUT
            )
        with notify.sends_kept() as sends:
            answer = service(**kwargs)
        return answer, sends

    return call


def _size(raw: str | bytes) -> int:
    """A frame's size in bytes (the limit is in bytes, not characters)."""
    if isinstance(raw, str):
        return len(raw.encode("utf-8", "surrogatepass"))
    return len(raw)


def _valid_id(value) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 64


class LobbyConsumer(DirectDispatchMixin, UserSocketMixin, AsyncJsonWebsocketConsumer):
    """Tells lobby pages to refresh their table list when it changes.

    Open to everybody; a signed-in user's socket also joins the user's group.
    """

    async def connect(self):
        user = self.scope["user"]
        if user.is_authenticated and not await self.join_user_group(user):
            return
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.leave_user_group()
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "pong"})

    async def lobby_changed(self, event):
        await self.send_json({"type": "lobby"})
