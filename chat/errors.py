"""The chat's refusals, each with its wire code (docs/protocol.md and
docs/chat.md); nothing is stored or sent when one is raised."""

from __future__ import annotations

from common.errors import ApplicationError


class ChatRefused(ApplicationError):
    status = 400


class ChatEmpty(ChatRefused):
    code = "chat_empty"


class ChatTooLong(ChatRefused):
    code = "chat_too_long"


class UnknownPhrase(ChatRefused):
    code = "unknown_phrase"


class ChatFlood(ChatRefused):
    """Over the per-player rate (``PULKA_CHAT_MESSAGES`` a
    ``PULKA_CHAT_SECONDS``)."""

    code = "chat_flood"
    status = 429


class Muted(ChatRefused):
    """An operator (or the word filter) muted the author until ``until``."""

    code = "muted"
    status = 403

    def __init__(self, until):
        super().__init__(f"you are muted until {until.isoformat()}")
        self.until = until


class Blocked(ChatRefused):
    """A player of the players' room blocked the author. The author is not
    told who: the block is the other player's."""

    code = "blocked"
    status = 403


class YouBlocked(ChatRefused):
    """The author blocked a player of the players' room: ``names`` says whom
    (the author knows it already), so that they can unblock to write."""

    code = "you_blocked"
    status = 403

    def __init__(self, names: list[str]):
        super().__init__(f"you blocked {', '.join(names)}: unblock to write here")
        self.names = names
