"""Open sockets end with the session they were opened in.

A socket is authenticated once, when it connects. So that signing out means
it, the site ends the sockets of:

* a session that logs out: the sockets opened in it (group
  ``session-<key>``);
* a user whose password changes, or whose account is deactivated (by a ban
  or in the admin): every socket of theirs (group ``user-<id>``).

Each is told over the channel layer and closes.

These groups carry other word for a user's sockets too (``USER_MESSAGES``):
every message sent to them is declared there and sent through ``tell_user``,
and every socket that joins them handles each one
(``games.consumers.sockets.UserSocketMixin``), if only by ignoring it; a
socket without a handler for a message it is sent drops, as Channels
raises. Telling them is best effort:
the logout, the password change or the ban is done whatever the channel
layer says, and a notice it does not take (Redis down) is sent again from a
thread of this process until it does (``Retries``). What an ended session
may do meanwhile does not hang on that notice: while Redis is in doubt, a
table socket reads the session from the database before each move it passes
on (``session_ended``, one query by primary key) and closes instead when the
session has ended, so a move that arrives after a logout is refused with
nothing played even when the notice is lost.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import TYPE_CHECKING

from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts.messages import USER, ChatHidden, SessionEnded
from common.channel_layer import channel_layer
from common.messages import GroupMessage, encode

if TYPE_CHECKING:
    from psycopg_pool import AsyncConnectionPool

logger = logging.getLogger(__name__)

# Close codes (docs/protocol.md).
CLOSE_SIGNED_OUT = 4401
CLOSE_FORBIDDEN = 4403
# The close reason of a deactivated account's sockets.
BANNED = "banned"
SIGNED_OUT = "signed out"

# Every message type sent to a user's or a session's group, declared as
# types in ``accounts.messages``.
SESSION_ENDED = SessionEnded.TYPE
CHAT_HIDDEN = ChatHidden.TYPE
USER_MESSAGES = tuple(kind.TYPE for kind in USER.carries)


def session_group(session_key: str) -> str:
    return f"session-{session_key}"


def user_group(user_id: int) -> str:
    """Every socket of a signed-in user, wherever it is."""
    return f"user-{user_id}"


def tell_user(user_id: int, message: GroupMessage | dict) -> None:
    """Send ``message`` to every socket of the user; its type must be one of
    ``USER_MESSAGES`` (ValueError otherwise, and nothing is sent)."""
    if isinstance(message, GroupMessage):
        message = encode(message)
    _send(user_group(user_id), message)


def _send(group: str, message: dict) -> None:
    if message.get("type") not in USER_MESSAGES:
        raise ValueError(f"{message.get('type')!r} is not one of USER_MESSAGES")
    async_to_sync(channel_layer().group_send)(group, message)


def _tell(group: str, code: int, reason: str) -> None:
    message = encode(SessionEnded(code, reason))
    try:
        _send(group, message)
    except Exception:  # whatever the layer's failure: what ended stays ended
        logger.warning("could not tell %s yet; trying again", group, exc_info=True)
        retries.add(group, message)


def end_session_sockets(session_key: str) -> None:
    """The session logged out: its sockets close."""
    _tell(session_group(session_key), CLOSE_SIGNED_OUT, SIGNED_OUT)


def end_user_sockets(user_id: int, *, banned: bool) -> None:
    """Every socket the user has open now closes (a password change, a
    deactivation)."""
    if banned:
        _tell(user_group(user_id), CLOSE_FORBIDDEN, BANNED)
    else:
        _tell(user_group(user_id), CLOSE_SIGNED_OUT, SIGNED_OUT)


class Retries:
    """The notices the channel layer did not take, sent again in order from
    a thread of their own, every ``first`` seconds doubling up to ``most``,
    until it takes them. They live as long as the process (best effort: the
    sockets' own check refuses their moves meanwhile), at most ``keep`` of
    them, the oldest dropped first."""

    def __init__(self, first: float = 1.0, most: float = 30.0, keep: int = 10_000):
        self.first, self.most = first, most
        self.pending: deque[tuple[str, dict]] = deque(maxlen=keep)
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def add(self, group: str, message: dict) -> None:
        with self.lock:
            self.pending.append((group, message))
            if self.thread is None:
                self.thread = threading.Thread(
                    target=self._run, name="socket-notices", daemon=True
                )
                self.thread.start()

    def _run(self) -> None:
        wait = self.first
        while True:
            time.sleep(wait)
            with self.lock:
                if not self.pending:
                    self.thread = None
                    return
                notice = self.pending[0]
            try:
                async_to_sync(channel_layer().group_send)(*notice)
            except Exception:
                wait = min(2 * wait, self.most)
                continue
            logger.info("told %s at last", notice[0])
            with self.lock:
                if self.pending and self.pending[0] is notice:
                    self.pending.popleft()
            wait = 0  # the others at once


retries = Retries()


def _session_sql() -> str:
    """One row: the user's password hash and active flag, and whether the
    session is still stored and unexpired (as Django's session store reads
    it)."""
    users = get_user_model()._meta.db_table
    sessions = Session._meta.db_table
    return (
        f'SELECT password, is_active, EXISTS (SELECT 1 FROM "{sessions}"'
        f" WHERE session_key = %s AND expire_date > %s)"
        f' FROM "{users}" WHERE id = %s'
    )


async def session_ended(
    pool: AsyncConnectionPool,
    *,
    session_key: str | None,
    user_id: int | None,
    password: str,
) -> tuple[int, str] | None:
    """Why a socket opened in the session ``session_key`` by ``user_id``
    (whose password hash was ``password`` then) may act no more: the close
    code and reason; None while it may. One read on ``pool`` (an async
    psycopg pool, the live games' own), off Redis: the session rows are the
    truth, and Redis may be down or have missed the logout. A database error
    is raised."""
    async with pool.connection() as conn:
        cursor = await conn.execute(
            _session_sql(), [session_key or "", timezone.now(), user_id]
        )
        row = await cursor.fetchone()
    if row is None:
        return CLOSE_SIGNED_OUT, SIGNED_OUT  # the account is gone
    now_password, active, stored = row
    if not active:
        return CLOSE_FORBIDDEN, BANNED
    # A new password ends the user's other sessions (Django checks the hash
    # the session was signed in with on every request; this is that check).
    if not stored or now_password != password:
        return CLOSE_SIGNED_OUT, SIGNED_OUT
    return None
