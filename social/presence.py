"""Who is online: a player with a page of the site open.

Each /ws/me/ socket is a member of its user's sorted set in Redis, scored
by when it stops counting: its last ping plus the silence limit
(``PULKA_SOCKET_SILENCE_SECONDS``). A ping moves the score on; a close
takes the member out; a socket whose server died simply runs out, so no
crash leaves a player online. A player is online while any member of the
set is still in time. The set itself expires with its last member.
"""

from __future__ import annotations

from functools import cache as once

import redis
from django.conf import settings

from common import redis_roles


@once
def _redis() -> redis.Redis:
    return redis_roles.client("cache")


def _key(user_id: int) -> str:
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    return f"{prefix}:online:{user_id}"


def _ttl() -> float:
    return float(settings.PULKA_SOCKET_SILENCE_SECONDS)


def heard(user_id: int, channel_name: str, *, now: float) -> bool:
    """The socket ``channel_name`` of the user was heard at ``now`` (Unix
    seconds). Returns whether the user has just come online (no socket of
    theirs was in time before)."""
    key = _key(user_id)
    with _redis().pipeline() as pipe:
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zcard(key)
        pipe.zadd(key, {channel_name: now + _ttl()})
        pipe.expire(key, int(_ttl()) + 1)
        _, before, *_ = pipe.execute()
    return before == 0


def gone(user_id: int, channel_name: str, *, now: float) -> bool:
    """The socket closed. Returns whether the user is now offline."""
    key = _key(user_id)
    with _redis().pipeline() as pipe:
        pipe.zrem(key, channel_name)
        pipe.zcount(key, now, "+inf")
        _, left = pipe.execute()
    return left == 0


def online_ids(user_ids, *, now: float) -> set[int]:
    """Those of ``user_ids`` online at ``now``: one round trip."""
    user_ids = list(user_ids)
    if not user_ids:
        return set()
    with _redis().pipeline() as pipe:
        for user_id in user_ids:
            pipe.zcount(_key(user_id), now, "+inf")
        counts = pipe.execute()
    return {user_id for user_id, count in zip(user_ids, counts, strict=True) if count}
