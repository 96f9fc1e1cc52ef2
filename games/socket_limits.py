"""Limits on what one client may ask of the live sockets.

* **A message rate per socket**: a token bucket, ``PULKA_SOCKET_RATE``
  messages a second with bursts of ``PULKA_SOCKET_BURST``. A message past it
  is dropped unread; the first of a run is answered with a ``rate_limited``
  error, and a client that goes on sending as many again while the bucket is
  empty is closed with ``CLOSE_TOO_MANY_MESSAGES``. A dropped message costs
  no parsing, no database and no broadcast, so a flood cannot pile work up
  behind itself.
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
from functools import cache

import redis
from django.conf import settings

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
    it and say so), "drop" (silently) or "close"."""

    def __init__(self, rate: float | None = None, burst: float | None = None):
        rate = settings.PULKA_SOCKET_RATE if rate is None else rate
        burst = settings.PULKA_SOCKET_BURST if burst is None else burst
        self.bucket = TokenBucket(rate=rate, burst=burst)
        self.refused_in_a_row = 0

    def verdict(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        if self.bucket.take(now):
            self.refused_in_a_row = 0
            return "pass"
        self.refused_in_a_row += 1
        if self.refused_in_a_row == 1:
            return "warn"
        if self.refused_in_a_row > self.bucket.burst:
            return "close"
        return "drop"


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


def _key(user_id: int) -> str:
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    return f"{prefix}:sockets:{user_id}"


def socket_opened(user_id: int, channel_name: str) -> list[str]:
    """Count a new socket of the user; returns the channels of the sockets
    that must close to keep within the limit, oldest first. (Sync: one
    round trip to Redis.)"""
    key, limit = _key(user_id), settings.PULKA_SOCKETS_PER_USER
    with _redis().pipeline() as pipe:
        pipe.zadd(key, {channel_name: time.time()})
        # A server that died cannot take its sockets out: forget them a day on.
        pipe.expire(key, 24 * 60 * 60)
        pipe.zrange(key, 0, -limit - 1)
        pipe.zremrangebyrank(key, 0, -limit - 1)
        *_, oldest, _ = pipe.execute()
    return [name.decode() for name in oldest]


def socket_closed(user_id: int, channel_name: str) -> None:
    _redis().zrem(_key(user_id), channel_name)
