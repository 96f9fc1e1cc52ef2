"""Limits on what one client may ask of the live sockets.

* **A message rate per socket**: a token bucket, ``PULKA_SOCKET_RATE``
  messages a second with bursts of ``PULKA_SOCKET_BURST``. A message past it
  is dropped unread; the first of a run is answered with a ``rate_limited``
  error, and a client that goes on sending as many again while the bucket is
  empty is closed with ``CLOSE_TOO_MANY_MESSAGES``. A dropped message costs
  no parsing, no database and no broadcast, so a flood cannot pile work up
  behind itself.
* **A pause after a flood**: a session whose socket was closed for too
  many messages may not open another for ``PULKA_SOCKET_FLOOD_PAUSE``
  seconds. ``FloodGate`` refuses it at the handshake, from the session
  cookie and one Redis read (then from memory), before the session or the
  user is looked up, so reconnecting in a loop costs the server little.
* **Sockets per user**: at most ``PULKA_SOCKETS_PER_USER`` open at once; a
  new one closes the user's oldest with ``CLOSE_TOO_MANY_SOCKETS``. The
  sockets are kept in a Redis sorted set per user (scored by when each
  opened), shared by every server process.
* The frame size is limited by the ASGI server itself (uvicorn's
  ``--ws-max-size``, set to ``PULKA_MAX_FRAME_BYTES`` by the runner), so an
  oversized frame is refused before it is buffered.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cache as once

import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from common import redis_roles

# Close codes (docs/protocol.md), in the range RFC 6455 section 7.4.2 leaves
# to applications (4000-4999).
CLOSE_TOO_MANY_MESSAGES = 4429
CLOSE_TOO_MANY_SOCKETS = 4409


@dataclass
class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; a message takes
    one. ``now`` is a monotonic clock in seconds."""

    rate: float
    burst: float
    tokens: float = field(init=False)
    stamp: float | None = field(default=None, init=False)

    def __post_init__(self):
        self.tokens = self.burst

    def take(self, now: float) -> bool:
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class MessageRate:
    """A socket's bucket and what to do with a message: "pass", "warn" (drop
    it and say so), "drop" (silently) or "close".

    A flood is counted from its first refused message until the bucket is
    full again (the client kept to the rate for a while): its first refusal
    is a warning, and past as many refusals as the burst the socket closes.
    A client that only trickles over the rate, refused every other message,
    is counted too: a pass in between does not start the count again.
    """

    def __init__(self, rate: float | None = None, burst: float | None = None):
        rate = settings.PULKA_SOCKET_RATE if rate is None else rate
        burst = settings.PULKA_SOCKET_BURST if burst is None else burst
        self.bucket = TokenBucket(rate=rate, burst=burst)
        self.refused = 0

    def verdict(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        if self.bucket.take(now):
            if self.bucket.tokens >= self.bucket.burst - 1:
                self.refused = 0  # back within the rate: the flood is over
            return "pass"
        self.refused += 1
        if self.refused == 1:
            return "warn"
        if self.refused > self.bucket.burst:
            return "close"
        return "drop"


@once
def _redis() -> redis.Redis:
    return redis_roles.client("cache")


def _key(user_id: int, kind: str = "sockets") -> str:
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    return f"{prefix}:{kind}:{user_id}"


def socket_opened(user_id: int, channel_name: str, kind: str = "sockets") -> list[str]:
    """Count a new socket of the user; returns the channels of the sockets
    that must close to keep within the limit, oldest first. (Sync: one
    round trip to Redis.) Sockets of another ``kind`` are counted apart:
    the personal socket every page opens (``social.consumers``) does not
    take a place of a page's own."""
    key, limit = _key(user_id, kind), settings.PULKA_SOCKETS_PER_USER
    with _redis().pipeline() as pipe:
        pipe.zadd(key, {channel_name: time.time()})
        # A server that died cannot take its sockets out: forget them a day on.
        pipe.expire(key, 24 * 60 * 60)
        pipe.zrange(key, 0, -limit - 1)
        pipe.zremrangebyrank(key, 0, -limit - 1)
        *_, oldest, _ = pipe.execute()
    return [name.decode() for name in oldest]


def socket_closed(user_id: int, channel_name: str, kind: str = "sockets") -> None:
    _redis().zrem(_key(user_id, kind), channel_name)


def _pause_key(session_key: str) -> str:
    return f"flood-pause:{session_key}"


# Sessions this process knows to be paused, to the monotonic time the pause
# ends: a client reconnecting in a loop is then refused without any I/O.
_paused_here: dict[str, float] = {}


def _remember_pause(session_key: str) -> None:
    now = time.monotonic()
    if len(_paused_here) > 10_000:
        for key in [k for k, end in _paused_here.items() if end <= now]:
            del _paused_here[key]
    _paused_here[session_key] = now + settings.PULKA_SOCKET_FLOOD_PAUSE


async def pause_session(session_key: str | None) -> None:
    """The session flooded: no new socket for a while, on any server."""
    if session_key:
        _remember_pause(session_key)
        await _cache_set(
            _pause_key(session_key), True, settings.PULKA_SOCKET_FLOOD_PAUSE
        )


async def is_paused(session_key: str) -> bool:
    if _paused_here.get(session_key, 0) > time.monotonic():
        return True
    if await _cache_get(_pause_key(session_key)):
        _remember_pause(session_key)
        return True
    return False


# Off the shared thread: a Redis call is thread-safe and quick.
_cache_get = sync_to_async(cache.get, thread_sensitive=False)
_cache_set = sync_to_async(cache.set, thread_sensitive=False)


def _session_key_of(scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _, cookie = part.strip().partition("=")
                if key == settings.SESSION_COOKIE_NAME:
                    return cookie
    return None


class FloodGate:
    """ASGI middleware in front of the sockets' authentication: a session
    paused for flooding is closed as soon as it connects (4429)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            session_key = _session_key_of(scope)
            if session_key and await is_paused(session_key):
                await receive()  # the client's websocket.connect
                # Accepted, then closed: a client reads the code only from
                # an open socket (a close before the accept is an HTTP 403).
                await send({"type": "websocket.accept"})
                await send(
                    {
                        "type": "websocket.close",
                        "code": CLOSE_TOO_MANY_MESSAGES,
                        "reason": "too many messages",
                    }
                )
                return None
        return await self.app(scope, receive, send)
