"""The one builder of what a client is shown of a game: the snapshot that
the ``sync`` message (``games.messages.Sync``) carries.

Two callers hold a game in different forms: a game's owner holds it in
memory (``games.live.broadcast``), and the pages and a socket without an
owner read it from the database (``games.selectors``). Each turns what it
holds into these plain values and builds the message here, so the shape of
a snapshot is written once. What a seat may see of the cards comes from the
engine's ``view``, the one place that decides it.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings

from games.statuses import PLAYING
from joker.view import view


def seat_json(
    number: int,
    name: str,
    bot: str,
    left: bool,
    *,
    connected: bool,
    away_until: datetime | None = None,
    left_cause: str = "",
    rejoining: bool = False,
) -> dict:
    """One seat as every recipient sees it. ``away_until``: the end of the
    disconnect grace of a player who is away; ``left_cause``: why a seat
    was left (``disconnect``, ``player``, ``timeout``); ``rejoining``: its
    player takes it back from the bot at its next turn (docs/protocol.md)."""
    return {
        "number": number,
        "name": name,
        "bot": bot,
        "left": left,
        "connected": bool(bot) or connected,
        "away_until": away_until.isoformat() if away_until else None,
        "left_cause": left_cause if left else "",
        "rejoining": rejoining,
    }


def shared(
    *,
    game: int,
    table: int,
    version: int,
    status: str,
    deadline: datetime | None,
    turn_seconds: float,
    seats: list[dict],
    commitments: list[str],
    ending: dict | None,
    rejoin_allowed: bool = False,
) -> dict:
    """The part of a snapshot that is the same for every recipient.
    ``ending`` (the deals revealed, the coins won) is added once the game
    is over."""
    data = {
        "game": game,
        "table": table,
        "version": version,
        "status": status,
        "deadline": deadline.isoformat() if deadline else None,
        "turn_seconds": turn_seconds,
        "seats": seats,
        "commitments": list(commitments),
        # How long a disconnected player keeps the seat, and whether a seat
        # left may be taken back from the bot (a casual table).
        "grace_seconds": settings.PULKA_DISCONNECT_GRACE_SECONDS,
        "rejoin_allowed": rejoin_allowed,
    }
    if status != PLAYING and ending:
        data.update(ending)
    return data


def for_audience(shared_part: dict, state, audience: int | None) -> dict:
    """Everything the recipient at seat ``audience`` (None: a spectator)
    may see now."""
    return {**shared_part, "you": audience, "view": view(state, audience)}
