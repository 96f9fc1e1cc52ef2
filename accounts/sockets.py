"""Open sockets end with the session they were opened in.

A socket is authenticated once, when it connects. So that signing out means
it, the site ends the sockets of:

* a session that logs out: the sockets opened in it (group
  ``session-<key>``);
* a user whose password changes, or whose account is deactivated (by a ban
  or in the admin): every socket of theirs (group ``user-<id>``).

Each is told over the channel layer and closes. Nothing is checked per
message: a socket that is open was signed in when it connected and has not
been told otherwise (an action that crosses the close message on the way is
the last one it makes).
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

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


def _tell(group: str, code: int, reason: str) -> None:
    message = {"type": "session.ended", "code": code, "reason": reason}
    async_to_sync(get_channel_layer().group_send)(group, message)


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
