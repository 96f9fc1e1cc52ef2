"""Writes of what players decide about each other (docs/social.md).

Locking, for every service here: the players' rows first (both, lower id
first: ``accounts.locking.lock_players``), then invitations, then the table (in the
seat service). Two requests between the same two players therefore run one
after the other.
"""

from .blocks import block_create, block_delete
from .friends import (
    friend_request_accept,
    friend_request_cancel,
    friend_request_create,
    friend_request_decline,
    friendship_delete,
)
from .invitations import invitation_accept, invitation_create, invitation_decline

__all__ = [
    "block_create",
    "block_delete",
    "friend_request_accept",
    "friend_request_cancel",
    "friend_request_create",
    "friend_request_decline",
    "friendship_delete",
    "invitation_accept",
    "invitation_create",
    "invitation_decline",
]
