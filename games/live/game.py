"""A game being played, in memory, and the steps that change it.

``LiveGame`` holds what the owner needs to decide a step without reading
anything: the engine state, the version, the deadline, the seats, the
table's settings, and the answers already given to action ids. Each
``decide_*`` method either raises an ``ApplicationError`` (nothing changed)
or returns a ``Step`` (``steps``): the rows to append, the state and the
counters after, and the answer.
The step changes nothing until ``commit`` is called with it, which the owner
does once the journal has made it durable.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from common.errors import ApplicationError, NotAllowed
from games.errors import NotPlaying, StaleVersion
from games.live.steps import (
    ABORTED,
    BOT,
    FINISHED,
    PLAYER,
    PLAYING,
    TIMEOUT,
    Answer,
    Counters,
    Event,
    Step,
    next_deal,
    timeouts_after,
)

# The rest of the live game imports these from here too.
from games.live.steps import DISCONNECT as DISCONNECT
from games.live.steps import public_step as public_step
from joker import EngineError, apply
from joker.actions import (
    Action,
    PlayCard,
    Rejoin,
    Resign,
    action_from_json,
    action_to_json,
)
from joker.events import describe
from joker.state import DEAL, State

if TYPE_CHECKING:
    from games.live.thinking import Thought

# Besides at every deal, the state is saved once this many steps passed
# since the last save, so that a takeover replays few events.
SNAPSHOT_EVERY = 32


class Late(ApplicationError):
    code = "late"


@dataclass(frozen=True)
class Timing:
    """The table's clock settings, in seconds."""

    turn_seconds: float
    bot_seconds: float
    forfeit_after_timeouts: int = 0


@dataclass
class SeatInfo:
    number: int
    user_id: int | None
    bot: str
    left: bool
    name: str

    # Why the seat was left: the step's cause (``PLAYER`` for a
    # resignation, ``DISCONNECT`` after the grace, ``TIMEOUT``); "" while
    # it has not, or when it is not known (a game read from the database).
    left_cause: str = ""

    @property
    def played_by_bot(self) -> bool:
        return bool(self.bot) or self.left


@dataclass
class LiveGame:
    game_id: int
    table_id: int
    state: State
    version: int
    state_version: int
    deadline: datetime | None
    seats: list[SeatInfo]
    timing: Timing
    managed: bool = False
    # Ranked or with a stake: calling it off is then limited (``decide_abort``).
    at_stake: bool = False
    status: str = PLAYING
    cards_played: int = 0
    commitments: list[str] = field(default_factory=list)
    # The version each action id was answered with, by (seat, id): a resend
    # gets the first answer. (Plain numbers: nothing for the garbage
    # collector to scan, however many moves a game has had.)
    answers: dict[tuple[int, str], int] = field(default_factory=dict)
    # Consecutive timeouts of each seat (for ``Timing.forfeit_after_timeouts``).
    timeouts: list[int] = field(default_factory=list)
    # The seat actions of the deal being played (what a bot may know).
    deal_actions: list[Action] = field(default_factory=list)
    # The version at which the last timeout move was made, and its seat: a
    # move that seat chose on that version came too late.
    timed_out: tuple[int, int] | None = None
    # The seats whose player has been shown their hand, each with None
    # while present or, while away, when its disconnect grace runs out
    # (``Game.presence``; kept by the owner).
    presence: dict[int, datetime | None] = field(default_factory=dict)
    # The seats whose player asked to take the seat back from the bot: each
    # is theirs again when its next turn comes (``_step``).
    rejoining: set[int] = field(default_factory=set)

    @property
    def seats_can_be_taken_back(self) -> bool:
        """Whether a player who left may take the seat back: on a casual
        table only. A ranked or staked game keeps the leaver placed last, a
        tournament's game counts as a loss, and in Japanese Joker leaving
        ends the match (docs/live.md, Leaving)."""
        return not (self.at_stake or self.managed or self.state.players == 2)

    # Deciding steps

    def decide_play(
        self,
        seat: int,
        action: object,
        *,
        expected_version: int,
        client_id: str,
        now: datetime,
        lag: float = 0.0,
    ) -> Step:
        """A player's action, sent on ``expected_version`` with the
        player's own ``client_id``. ``lag`` (seconds) is how long after the
        deadline a move still counts as sent in time."""
        answered = self.answers.get((seat, client_id))
        if answered is not None:
            return Step(
                events=(),
                state=self.state,
                deadline=self.deadline,
                after=self._counters(),
                answer=Answer(answered),
            )
        self.check_playing()
        if self.timed_out == (expected_version, seat):
            raise Late("your time ran out: the automatic move was made instead")
        if expected_version != self.version:
            raise StaleVersion(
                f"the game is at version {self.version}, not {expected_version}"
            )
        if self.seats[seat].left:
            raise NotAllowed("you have left this game")
        if not isinstance(action, dict) or "seat" in action:
            raise ApplicationError(
                "an action is an object without 'seat'", code="bad_action"
            )
        try:
            engine_action = action_from_json({**action, "seat": seat})
        except EngineError as error:
            raise ApplicationError(str(error), code=error.code) from error
        if isinstance(engine_action, Resign):
            raise ApplicationError("resign with a resign message", code="bad_action")
        if (
            self.deadline is not None
            and self.state.turn == seat
            and now > self.deadline + timedelta(seconds=lag)
        ):
            raise Late("your time ran out: the automatic move is made instead")
        step = self._step(engine_action, cause=PLAYER, now=now, client_id=client_id)
        return replace(step, answer=Answer(step.version))

    def decide_resign(self, seat: int, *, cause: str, now: datetime) -> Step:
        self.check_playing()
        if self.seats[seat].left:
            raise NotAllowed("you have already left this game")
        step = self._step(Resign(seat), cause=cause, now=now, leaving=seat)
        return replace(step, answer=Answer(step.version))

    def ask_to_rejoin(self, seat: int) -> None:
        """The player who left ``seat`` takes it back at its next turn; the
        bot plays it until then. Nothing is written now: the seat's return
        is an action of the step that brings its turn (``_step``)."""
        self.check_playing()
        if not self.seats[seat].left:
            raise NotAllowed("you have not left this game")
        if not self.seats_can_be_taken_back:
            raise NotAllowed(
                "a seat left in a ranked, staked or tournament game, or in"
                " Japanese Joker, cannot be taken back"
            )
        self.rejoining.add(seat)

    def decide_automatic(self, now: datetime, thought: Thought | None = None) -> Step:
        """The move due now for the seat to move: the practice bot's
        (``thought``, a ``thinking.Thought`` thought elsewhere), the
        autopilot's for another bot, or for a person out of time one
        autopilot move, or leaving the game after too many timeouts in a row."""
        from joker.bots import autopilot_action

        self.check_playing()
        seat = self.to_move
        if seat.played_by_bot:
            if thought is None:
                return self._step(autopilot_action(self.state), cause=BOT, now=now)
            return self._step(thought.action, cause=BOT, now=now, thought=thought)
        if self._forfeits(seat.number):
            return self.decide_resign(seat.number, cause=TIMEOUT, now=now)
        return self._step(autopilot_action(self.state), cause=TIMEOUT, now=now)

    def decide_abort(self, seat: int | None, now: datetime) -> Step:
        """Call the game off: no result; the stakes go back. ``seat`` is the
        player asking, or None for the site (a tournament cancelled)."""
        self.check_playing()
        if seat is not None:
            self._check_abort_allowed(seat)
        event = Event(
            self.version + 1, kind="abort", public=[{"type": "aborted"}], created_at=now
        )
        return Step(
            events=(event,),
            state=self.state,
            deadline=None,
            after=self._counters(),
            status=ABORTED,
            save_state=True,
        )

    def _check_abort_allowed(self, seat: int) -> None:
        """A player may call a game off before its first card. In a ranked
        or staked game, only while calling it off cannot be a free redeal:
        before the player has seen their cards, or while another person has
        never come to the table (a no-show). Once every person has seen
        their hand, leaving is a resignation (docs/security.md)."""
        if self.managed:
            raise NotAllowed("a tournament game cannot be called off")
        if self.cards_played:
            raise NotAllowed("a game can be aborted only before its first card")
        if not self.at_stake or seat not in self.presence:
            return
        people = [s.number for s in self.seats if s.user_id is not None]
        if all(number in self.presence for number in people):
            raise NotAllowed(
                "everyone has seen their cards: a ranked or staked game can no"
                " longer be called off; resign to leave it"
            )

    def decide_first_deal(self, now: datetime) -> Step:
        """The game's first deal (a new game is at version 0)."""
        event, deal, after = next_deal(self.state, self.version + 1, now)
        counters = self._counters()
        return Step(
            events=(event,),
            state=after,
            deadline=self._next_deadline(after, now),
            after=replace(
                counters,
                commitments=(*counters.commitments, deal["commitment"]),
                deal_actions=(),
            ),
            deal=deal,
            save_state=True,
        )

    def move_is_due(self, now: datetime, early: timedelta = timedelta(0)) -> bool:
        """Whether the turn's time is up at ``now`` (or will be within
        ``early``, an alarm's allowance), so the automatic move is made."""
        return (
            self.status == PLAYING
            and self.deadline is not None
            and self.deadline - now <= early
        )

    def check_playing(self) -> None:
        if self.status != PLAYING:
            raise NotPlaying("the game is over")

    # Applying a decided step

    def commit(self, step: Step) -> None:
        """Make the in-memory game what the step made durable."""
        if not step.events:
            return
        for event in step.events:
            if event.client_id and event.seat is not None:
                # A resend of the action is answered as the step was.
                self.answers[(event.seat, event.client_id)] = step.version
        self.state = step.state
        self.version = step.version
        self.deadline = step.deadline
        self.status = step.status
        if step.save_state:
            self.state_version = step.version
        after = step.after
        self.cards_played = after.cards_played
        self.timeouts = list(after.timeouts)
        self.commitments = list(after.commitments)
        self.deal_actions = list(after.deal_actions)
        if step.seat_left is not None:
            self.seats[step.seat_left].left = True
            self.seats[step.seat_left].left_cause = step.cause
        if step.seat_back is not None:
            self.seats[step.seat_back].left = False
            self.seats[step.seat_back].left_cause = ""
            self.rejoining.discard(step.seat_back)
        if step.cause == TIMEOUT and step.seat is not None:
            self.timed_out = (step.version - len(step.events), step.seat)

    # The parts of a step

    def _counters(self) -> Counters:
        """The counters as they are, for a step that changes none of them."""
        return Counters(
            self.cards_played,
            tuple(self.timeouts),
            tuple(self.commitments),
            tuple(self.deal_actions),
        )

    def _step(
        self,
        action: Action,
        *,
        cause: str,
        now: datetime,
        client_id: str = "",
        thought: Thought | None = None,
        leaving: int | None = None,
    ) -> Step:
        """The step of ``action``, and of the next deal when it ends one.
        ``thought`` is the practice bot's (``thinking.Thought``) that chose
        it, kept with the move. ``leaving`` is the seat that leaves the game
        by it (a resignation): a bot's from now on, on the bot's clock."""
        try:
            after = apply(self.state, action)
        except EngineError as error:
            raise ApplicationError(str(error), code=error.code) from error
        moved = Event(
            self.version + 1,
            kind="action",
            public=describe(self.state, action, after),
            created_at=now,
            seat=action.seat,
            cause=cause,
            action=action_to_json(action),
            client_id=client_id,
            **({} if thought is None else thought_record(thought)),
        )
        events: tuple[Event, ...] = (moved,)
        deal: dict[str, Any] | None = None
        commitments = tuple(self.commitments)
        deal_actions: tuple[Action, ...] = (*self.deal_actions, action)
        if after.phase == DEAL:
            dealt, deal, after = next_deal(after, moved.version + 1, now)
            events = (moved, dealt)
            commitments = (*commitments, deal["commitment"])
            deal_actions = ()
        back = self._seat_back_at(after, leaving)
        if back is not None:
            # The turn has come to a seat whose player asked for it back:
            # from this turn on it is theirs, on a person's clock.
            back_event, after = self._rejoin_event(back, after, events[-1].version, now)
            events = (*events, back_event)
            deal_actions = (*deal_actions, Rejoin(back))
        if after.is_over:
            status, deadline, save_state = FINISHED, None, True
        else:
            status = PLAYING
            deadline = self._next_deadline(after, now, leaving=leaving, back=back)
            # Every deal saves the state, and so does a long enough run of moves.
            save_state = (
                deal is not None
                or events[-1].version - self.state_version >= SNAPSHOT_EVERY
            )
        return Step(
            events=events,
            state=after,
            deadline=deadline,
            after=Counters(
                cards_played=self.cards_played + int(isinstance(action, PlayCard)),
                timeouts=timeouts_after(self.timeouts, events),
                commitments=commitments,
                deal_actions=deal_actions,
            ),
            status=status,
            deal=deal,
            seat_left=leaving,
            seat_back=back,
            cause=cause,
            seat=action.seat,
            save_state=save_state,
        )

    def _seat_back_at(self, state: State, leaving: int | None) -> int | None:
        """The seat whose player takes it back with this step: the seat to
        move next, when its player asked for it back."""
        if state.is_over or state.turn is None:
            return None
        seat = state.turn
        if seat in self.rejoining and seat != leaving and self.seats[seat].left:
            return seat
        return None

    def _rejoin_event(
        self, seat: int, state: State, version: int, now: datetime
    ) -> tuple[Event, State]:
        action = Rejoin(seat)
        after = apply(state, action)
        event = Event(
            version + 1,
            kind="action",
            public=describe(state, action, after),
            created_at=now,
            seat=seat,
            cause=PLAYER,
            action=action_to_json(action),
        )
        return event, after

    def _next_deadline(
        self,
        state: State,
        now: datetime,
        leaving: int | None = None,
        back: int | None = None,
    ) -> datetime:
        if state.turn == back:
            return now + timedelta(seconds=self.timing.turn_seconds)
        if self.seats[_turn(state)].played_by_bot or state.turn == leaving:
            seconds = self.timing.bot_seconds
        else:
            seconds = self.timing.turn_seconds
        return now + timedelta(seconds=seconds)

    def _forfeits(self, seat: int) -> bool:
        """Whether this timeout is one too many in a row."""
        limit = self.timing.forfeit_after_timeouts
        return bool(limit) and self.timeouts[seat] + 1 >= limit

    @property
    def to_move(self) -> SeatInfo:
        return self.seats[_turn(self.state)]

    def shift_clocks(self, seconds: float) -> None:
        """Move the turn's deadline and every disconnect grace on by
        ``seconds`` (an outage nobody should lose time for)."""
        shift = timedelta(seconds=seconds)
        if self.deadline is not None:
            self.deadline += shift
        for seat, due in self.presence.items():
            if due is not None:
                self.presence[seat] = due + shift


def thought_record(thought: Thought) -> dict[str, Any]:
    """What a bot move's event keeps of the practice bot's ``thought``
    (``thinking.Thought``): how long it thought, the budget it was given,
    and whether that was cut short."""
    return {
        "thinking_ms": thought.milliseconds,
        "budget_ms": thought.budget_ms,
        "cut_short": thought.cut_short,
    }


def _turn(state: State) -> int:
    """The seat to act in a game being played (the engine's ``turn`` is None
    only between a deal's end and the next deal's, and once the game is
    over: no move is due then)."""
    assert state.turn is not None, "nobody is to move"
    return state.turn
