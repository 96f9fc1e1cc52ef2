"""Open sockets end with the session they were opened in.

A socket is authenticated once, when it connects. So that signing out means
it, the site ends the sockets of:

* a session that logs out: the sockets opened in it (group
  ``session-<key>``);
* a user whose password changes, or whose account is deactivated (by a ban
  or in the admin): every socket of theirs (group ``user-<id>``).

Each is told over the channel layer and closes. That message may arrive
after an action the client sent meanwhile, so every action also asks
``still_signed_in`` first: two keys in the cache (Redis), one small read,
set here before the message is sent.
"""

from __future__ import annotations

import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache

# Close codes (docs/protocol.md).
CLOSE_SIGNED_OUT = 4401
CLOSE_FORBIDDEN = 4403
# The close reason of a deactivated account's sockets.
BANNED = "banned"
SIGNED_OUT = "signed out"


def session_group(session_key: str) -> str:
    return f"session-{session_key}"


def user_group(user_id: int) -> str:
    """Every socket of a signed-in user, wherever it is."""
    return f"user-{user_id}"


def _session_ended_key(session_key: str) -> str:
    return f"session-ended:{session_key}"


def _user_cut_key(user_id: int) -> str:
    return f"sockets-cut:{user_id}"


def _tell(group: str, code: int, reason: str) -> None:
    message = {"type": "session.ended", "code": code, "reason": reason}
    async_to_sync(get_channel_layer().group_send)(group, message)


def end_session_sockets(session_key: str) -> None:
    """The session logged out: its sockets close and act no more."""
    cache.set(_session_ended_key(session_key), 1, settings.SESSION_COOKIE_AGE)
    _tell(session_group(session_key), CLOSE_SIGNED_OUT, SIGNED_OUT)


def end_user_sockets(user_id: int, *, banned: bool) -> None:
    """Every socket the user has open now closes and acts no more (a
    password change, a deactivation)."""
    # In milliseconds, an integer: the cache stores integers as they are,
    # so that ``still_signed_in_async`` reads them without unpickling.
    cut = int(time.time() * 1000)
    cache.set(_user_cut_key(user_id), cut, settings.SESSION_COOKIE_AGE)
    if banned:
        _tell(user_group(user_id), CLOSE_FORBIDDEN, BANNED)
    else:
        _tell(user_group(user_id), CLOSE_SIGNED_OUT, SIGNED_OUT)


def still_signed_in(session_key: str | None, user_id: int, since: float) -> bool:
    """Whether a socket opened at ``since`` (``time.time()``) in the session
    ``session_key`` may still act for ``user_id``."""
    keys = [_user_cut_key(user_id)]
    if session_key:
        keys.append(_session_ended_key(session_key))
    found = cache.get_many(keys)
    if session_key and found.get(_session_ended_key(session_key)):
        return False
    cut = found.get(_user_cut_key(user_id))
    return cut is None or cut < since * 1000


async def still_signed_in_async(
    redis, session_key: str | None, user_id: int, since: float
) -> bool:
    """``still_signed_in`` read on the event loop, with ``redis`` (an
    asyncio client of the cache's Redis, answers decoded)."""
    keys = [cache.make_key(_user_cut_key(user_id))]
    if session_key:
        keys.append(cache.make_key(_session_ended_key(session_key)))
    found = await redis.mget(keys)
    if session_key and found[1] is not None and int(found[1]):
        return False
    return found[0] is None or int(found[0]) < since * 1000
