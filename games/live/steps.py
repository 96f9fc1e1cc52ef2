"""A step of a live game and its events: values, each built whole once.

A ``Step`` is what ``LiveGame`` decides: the events to append, the state
after them, the deadline, the game's counters after them (cards played,
timeouts in a row, commitments, the deal's actions), and what else the step
changes (a deal's record, a seat left, the game's end). Both it and its
``Event``s are frozen: the journal writes, the owner applies and the
broadcast sends the very step that was decided, so none of them can see a
step changed under it, and the row written and the game held in memory read
the same values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games import fairness
from games.statuses import ABORTED as ABORTED
from games.statuses import FINISHED as FINISHED
from games.statuses import PLAYING as PLAYING
from joker import apply
from joker.actions import Action, Deal
from joker.events import describe
from joker.shuffle import deal_cards
from joker.state import State

PLAYER, BOT, TIMEOUT, DISCONNECT = "player", "bot", "timeout", "disconnect"


def public_step(
    version: int, public: list[dict[str, Any]], cause: str
) -> dict[str, Any]:
    """One step's public events as updates and syncs list them. A move the
    timer made for its seat says so, ``"cause": "timeout"`` (docs/protocol.md):
    a field added for it alone, so every other step reads as it always did."""
    step: dict[str, Any] = {"version": version, "events": public}
    if cause == TIMEOUT:
        step["cause"] = TIMEOUT
    return step


@dataclass(frozen=True, slots=True)
class Event:
    """One row of the game's event log (``GameEvent``), as it is written."""

    version: int
    kind: str  # "action", "deal" or "abort"
    public: list[dict[str, Any]]
    created_at: datetime
    seat: int | None = None
    cause: str = PLAYER
    action: dict[str, Any] | None = None
    # The player's own id for the action, which a resend is answered by.
    client_id: str = ""
    thinking_ms: int | None = None
    budget_ms: int | None = None
    cut_short: bool | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """What a player's command is answered with once done, its ``ack``
    (docs/protocol.md): the version the game is at after the step, or None
    when the ack names none (an abort, a seat asked back)."""

    version: int | None = None

    def fields(self) -> dict[str, int]:
        """The ack's fields besides its type and id."""
        return {} if self.version is None else {"version": self.version}


@dataclass(frozen=True, slots=True)
class Counters:
    """The game's counters as a step leaves them: computed once, where the
    step is decided, then written (``statements``) and held (``LiveGame``)
    as they are."""

    cards_played: int
    # Each seat's timeouts in a row (``Timing.forfeit_after_timeouts``).
    timeouts: tuple[int, ...]
    # The commitment of every deal dealt so far (``fairness``).
    commitments: tuple[str, ...]
    # The seat actions of the deal being played (what a bot may know).
    deal_actions: tuple[Action, ...]


@dataclass(frozen=True)
class Step:
    """One change of a game, decided but not yet applied."""

    events: tuple[Event, ...]
    state: State
    deadline: datetime | None
    after: Counters
    status: str = PLAYING
    deal: dict[str, Any] | None = None  # the new deal's record, with its salt
    seat_left: int | None = None
    # The seat whose player took it back from the bot by this step.
    seat_back: int | None = None
    # What the player who sent the step is answered (``ack``).
    answer: Answer = Answer()
    cause: str = PLAYER
    seat: int | None = None
    save_state: bool = False

    @property
    def version(self) -> int:
        return self.events[-1].version

    @property
    def ends_game(self) -> bool:
        return self.status != PLAYING

    @property
    def public(self) -> list[dict[str, Any]]:
        """The public events, as an update lists them."""
        return [
            public_step(event.version, event.public, event.cause)
            for event in self.events
        ]


def timeouts_after(
    timeouts: Sequence[int], events: tuple[Event, ...]
) -> tuple[int, ...]:
    """Each seat's timeouts in a row once ``events`` have happened."""
    counts = list(timeouts)
    for event in events:
        if event.kind == "action" and event.seat is not None:
            seat = event.seat
            counts[seat] = counts[seat] + 1 if event.cause == TIMEOUT else 0
    return tuple(counts)


def next_deal(
    state: State, version: int, now: datetime
) -> tuple[Event, dict[str, Any], State]:
    """Shuffle, commit to and start the next deal after ``state``, as the
    event of ``version``: that event, the deal's record (with its secret
    salt) and the state after it."""
    deal: Deal = deal_cards(state)
    salt, commitment = fairness.commit(state.deal_index, deal)
    after = apply(state, deal)
    public = describe(state, deal, after)
    public[0]["commitment"] = commitment
    event = Event(
        version,
        kind="deal",
        public=public,
        created_at=now,
        action={"deal": state.deal_index},
    )
    record = {
        "index": state.deal_index,
        "hands": [list(hand) for hand in deal.hands],
        "turned": deal.turned or "",
        "columns": [[list(column) for column in own] for own in deal.columns],
        "salt": salt,
        "commitment": commitment,
    }
    return event, record, after
