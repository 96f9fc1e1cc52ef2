"""What each recipient of a live game is sent, built in one place.

A ``sync`` is a snapshot for its audience (a seat number, or None for the
spectators), built by ``games.snapshots`` from the game held here; an
``update`` is a step's public events and the audience's ``position`` after
them, from the engine's ``view`` module: the one place that decides what a
seat may see. The owner builds one message per audience and sends it,
serialised once, to every socket of that audience.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from common.messages import ClientOut, encode
from games import snapshots
from games.live.game import LiveGame
from games.live.steps import Step
from games.messages import Back, Presence, Sync, Update
from joker.view import position

Audience = int | None


def audiences(live: LiveGame) -> list[Audience]:
    return [*range(len(live.seats)), None]


def seats_json(live: LiveGame, present: Iterable[int]) -> list[dict[str, Any]]:
    present = set(present)
    return [
        snapshots.seat_json(
            seat.number,
            seat.name,
            seat.bot,
            seat.left,
            connected=seat.number in present,
            away_until=(
                None
                if seat.left or seat.number in present
                else live.presence.get(seat.number)
            ),
            left_cause=seat.left_cause,
            rejoining=seat.number in live.rejoining,
        )
        for seat in live.seats
    ]


def shared(
    live: LiveGame, present: Iterable[int], ending: dict[str, Any] | None
) -> dict[str, Any]:
    """The part of a snapshot that is the same for everybody. ``ending``
    (the deals revealed, the coins won) is read when the game ends."""
    return snapshots.shared(
        game=live.game_id,
        table=live.table_id,
        version=live.version,
        status=live.status,
        deadline=live.deadline,
        turn_seconds=live.timing.turn_seconds,
        seats=seats_json(live, present),
        commitments=live.commitments,
        ending=ending,
        rejoin_allowed=live.seats_can_be_taken_back,
    )


def update_texts(
    live: LiveGame, step: Step, wanted: Iterable[Audience] | None = None
) -> dict[Audience, str]:
    """The ``update`` after ``step`` (already committed to ``live``), as
    JSON text for each audience in ``wanted`` (default: every audience): the
    step's public events and the audience's position after them, not a
    whole snapshot (a client keeps its view with ``engine.follow``)."""
    return {
        audience: update_text(live, step, audience)
        for audience in (audiences(live) if wanted is None else wanted)
    }


def update_text(
    live: LiveGame, step: Step, audience: Audience, ack: str | None = None
) -> str:
    """One audience's ``update`` (``update_texts``); with ``ack``, the
    mover's own, answering its action (protocol 2)."""
    deadline = live.deadline.isoformat() if live.deadline else None
    return text(
        Update(
            live.version,
            live.status,
            deadline,
            step.public,
            position(live.state, audience),
            ack,
        )
    )


def held(step: dict[str, Any]) -> tuple[int, bytes]:
    """A step's public events as an owner keeps them for resyncs: its
    version and its JSON text, one object that the garbage collector never
    has to scan (an owner holds hundreds of steps per game)."""
    return step["version"], orjson.dumps(step)


def live_sync(
    live: LiveGame,
    audience: Audience,
    present: Iterable[int],
    since: int | None,
    recent: list[tuple[int, bytes]],
    ending: dict[str, Any] | None = None,
) -> Sync:
    """The answer to a (re)connection: the snapshot, and the public events
    after ``since`` when the owner still holds them all (``recent``, as
    ``held`` keeps them)."""
    events: list[Any] = []
    if since is not None and since <= live.version:
        after = [text for version, text in recent if version > since]
        if len(after) == live.version - since:
            events = [orjson.Fragment(text) for text in after]
    common = shared(live, present, ending)
    return Sync(
        since,
        events,
        last_trick(recent),
        snapshots.for_audience(common, live.state, audience),
    )


def last_trick(recent: list[tuple[int, bytes]]) -> dict[str, Any] | None:
    """The latest trick of the deal being played among the public steps
    held, for a page loaded after it was taken: its cards, its winner and
    its step's version. None before the deal's first trick: the cards of an
    earlier deal are dealt again and are someone's hidden cards now."""
    for version, text in reversed(recent):
        for event in reversed(orjson.loads(text)["events"]):
            if event["type"] == "deal":
                return None
            if event["type"] == "trick":
                return {
                    "version": version,
                    "cards": event["cards"],
                    "winner": event["winner"],
                }
    return None


def presence_text(live: LiveGame, present: Iterable[int]) -> str:
    return text(Presence(live.version, seats_json(live, present)))


def back_text(grace_left: float) -> str:
    """To a player whose socket came back while their grace ran: they kept
    the seat, with ``grace_left`` seconds of it to spare."""
    return text(Back(round(grace_left, 1)))


def text(message: ClientOut) -> str:
    """A message as the JSON text a socket sends (``json_text``)."""
    return json_text(encode(message))


def json_text(message: dict[str, Any]) -> str:
    """A message as compact JSON text (integer keys as strings, as the
    standard library's ``json`` writes them)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
