"""The refusals of the social services, each with its wire code
(docs/social.md lists them; the API's schema documents each)."""

from __future__ import annotations

from common.errors import ApplicationError, NotAllowed

# An invitation stays open this long, unless answered or its seat goes first.
INVITATION_SECONDS = 120
# Invitations one player may send in a minute: enough to fill a table and
# ask again, not enough to pester.
INVITATIONS_PER_MINUTE = 6
# Friend requests one player may make in an hour, to anyone, and to one
# player in a day: asking and taking back counts each time, so nobody is
# showered with notices.
FRIEND_REQUESTS_PER_HOUR = 20
FRIEND_REQUESTS_A_PAIR_PER_DAY = 3


class Blocked(NotAllowed):
    """One of the two players has blocked the other: no friend request and
    no invitation passes between them."""

    code = "blocked"


class Yourself(NotAllowed):
    code = "yourself"


class AlreadyFriends(NotAllowed):
    code = "already_friends"


class AlreadyRequested(NotAllowed):
    code = "already_requested"


class NotFriends(NotAllowed):
    code = "not_friends"


class NotSeated(NotAllowed):
    """Only a player seated at a table waiting for players invites to it."""

    code = "not_seated"


class NoFreeSeat(NotAllowed):
    code = "no_free_seat"


class InvitedAlready(NotAllowed):
    code = "invited_already"


class AlreadySeated(NotAllowed):
    code = "already_seated"


class InvitationOver(NotAllowed):
    """Answered already, expired, or its table has no free seat or started."""

    code = "invitation_over"


class TooManyInvitations(ApplicationError):
    code = "too_many_invitations"
    status = 429


class TooManyFriendRequests(ApplicationError):
    """More than ``FRIEND_REQUESTS_PER_HOUR`` requests in an hour, or
    ``FRIEND_REQUESTS_A_PAIR_PER_DAY`` to one player in a day (a request
    taken back counts)."""

    code = "too_many_friend_requests"
    status = 429
