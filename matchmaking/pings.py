"""What a quick-play page's ping needs, kept in Redis so that a ping never
waits for the database.

- **When each player was last heard.** A ping records its time here (one
  sorted set, the user's id scored by the time); the tick takes those times
  into each pool entry's ``seen_at`` before it removes the players gone
  quiet (``services.match_tick``). Pages and the API record their sign
  directly (``services.pool_touch``).
- **How many wait in each pool**, as the last tick, join or cancel left
  them: a ping's answer tells the player (``consumers.QuickPlayConsumer``).

Both run out by themselves once nobody pings and no tick runs.
"""

from __future__ import annotations

from functools import cache as once

import redis
from django.conf import settings

from common import redis_roles

# Kept this long past the last ping or tick: the tick needs the pings of
# the last ``services.AWAY_SECONDS`` (30 s), and runs every 2 seconds.
KEEP_SECONDS = 60


@once
def _redis() -> redis.Redis:
    return redis_roles.client("cache")


def _key(name: str) -> str:
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    return f"{prefix}:quickplay:{name}"


def _pool(category: str, stake: int) -> str:
    return f"{category}:{stake}"


def heard(user_id: int, category: str, stake: int, *, now: float) -> int | None:
    """The player's page pinged at ``now`` (Unix seconds). Returns how many
    wait in their pool (``category``, ``stake``) as of the last tick, None
    if no tick has said."""
    key = _key("heard")
    with _redis().pipeline() as pipe:
        pipe.zadd(key, {str(user_id): now})
        pipe.expire(key, KEEP_SECONDS)
        pipe.hget(_key("players"), _pool(category, stake))
        *_, players = pipe.execute()
    return None if players is None else int(players)


def heard_between(start: float, end: float) -> dict[int, float]:
    """The players heard from ``start`` to ``end`` (Unix seconds), each with
    their last ping; those heard before ``start`` are forgotten."""
    key = _key("heard")
    with _redis().pipeline() as pipe:
        pipe.zremrangebyscore(key, "-inf", f"({start}")
        pipe.zrangebyscore(key, start, end, withscores=True)
        _, found = pipe.execute()
    return {int(member): score for member, score in found}


def publish_size(category: str, stake: int, players: int) -> None:
    """How many wait in one pool now."""
    key = _key("players")
    with _redis().pipeline() as pipe:
        pipe.hset(key, _pool(category, stake), players)
        pipe.expire(key, KEEP_SECONDS)
        pipe.execute()


def publish_sizes(sizes: dict[tuple[str, int], int]) -> None:
    """How many wait in each pool now (the pools nobody waits in left out)."""
    key = _key("players")
    with _redis().pipeline() as pipe:  # a transaction: never seen half done
        pipe.delete(key)
        if sizes:
            pipe.hset(
                key,
                mapping={_pool(*pool): players for pool, players in sizes.items()},
            )
            pipe.expire(key, KEEP_SECONDS)
        pipe.execute()
