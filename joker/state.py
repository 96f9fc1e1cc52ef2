"""The game state: an immutable value that ``apply`` turns into the next one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .actions import PlayCard
from .jsontypes import JsonObject
from .rules import Rules
from .scoring import PulkaResult

# Phases. DEAL means the next deal's cards are due (also before the first).
DEAL: Final = "deal"
TRUMP: Final = "trump"
BID: Final = "bid"
PLAY: Final = "card"
OVER: Final = "over"


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal, as the record result reports it."""

    dealer: int  # the dealer, or the declarer in Japanese Joker
    cards: int
    trump: str
    bids: tuple[int, ...]  # empty in Japanese Joker
    tricks: tuple[int, ...]
    trick_winners: tuple[int, ...]
    scores: tuple[int, ...]  # deal scores, or the Japanese points

    def to_json(self, rules: Rules) -> JsonObject:
        if rules.is_japanese:
            return {
                "declarer": self.dealer,
                "trump": self.trump,
                "tricks": list(self.tricks),
                "trick_winners": list(self.trick_winners),
                "points": list(self.scores),
            }
        return {
            "dealer": self.dealer,
            "cards": self.cards,
            "trump": self.trump,
            "bids": list(self.bids),
            "table": "shetenva" if sum(self.bids) < self.cards else "tsaglejva",
            "tricks": list(self.tricks),
            "trick_winners": list(self.trick_winners),
            "scores": list(self.scores),
        }


@dataclass(frozen=True)
class State:
    """Where a game stands.

    Hands hold the cards still in each seat's hand, in dealing order; in
    Japanese Joker ``columns`` holds each seat's remaining
    ``(face_down, face_up)`` pairs. ``turn`` is the seat to act (None between
    deals and after the game). Finished deals, pulka premiums and totals make
    the scoresheet.
    """

    rules: Rules
    first_dealer: int
    phase: str = DEAL
    deal_index: int = 0
    turn: int | None = None
    hands: tuple[tuple[str, ...], ...] = ()
    columns: tuple[tuple[tuple[str, str], ...], ...] = ()
    turned: str | None = None
    trump: str | None = None
    bids: tuple[int | None, ...] = ()
    tricks: tuple[int, ...] = ()
    trick_winners: tuple[int, ...] = ()
    trick: tuple[PlayCard, ...] = ()
    leader: int = 0
    deals: tuple[DealResult, ...] = ()
    pulkas: tuple[PulkaResult, ...] = ()
    totals: tuple[int, ...] = ()
    left: tuple[int, ...] = ()
    places: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def cards_each(self) -> int:
        """Cards per player in the current (or next) deal."""
        return self.rules.cards_in_deal(self.deal_index)

    @property
    def dealer(self) -> int:
        """The current (or next) deal's dealer, or declarer in Japanese Joker."""
        return (self.first_dealer + self.deal_index) % self.players

    @property
    def winners(self) -> list[int]:
        return [seat for seat, place in enumerate(self.places) if place == 1]


def evolve(state: State, **changes: object) -> State:
    """A copy of ``state`` with some fields changed.

    Does what ``dataclasses.replace`` does for this frozen class, without
    re-running ``__init__``: copying the instance dictionary is several times
    faster, and every move of every game and bot playout makes such a copy.
    The copy is made whole and then set as the new instance's dictionary
    (past the frozen ``__setattr__``), which is quicker than filling the
    new instance's own empty dictionary.

    The copy is made by ``dict()``, not ``.copy()``: a state made by
    ``__init__`` keeps its fields in a dictionary whose keys its class
    shares, ``.copy()`` keeps that shared-key form, and CPython 3.11 reads
    attributes of an instance given such a dictionary several times slower
    than from an ordinary one. Every deal starts with an ``evolve``, so the
    states of its moves (copied by ``fields_of``) all have ordinary ones.
    """
    new = _new_object(State)
    fields = dict(state.__dict__)
    fields.update(changes)
    _set_fields(new, fields)
    return new


def fields_of(state: State) -> dict[str, object]:
    """A copy of the state's fields by name, to change and pass to
    ``from_fields``: ``evolve`` in two steps, for the moves made most often.
    Setting fields one by one in the copy costs less there than ``evolve``'s
    keyword arguments (a card that ends a trick changes seven fields)."""
    return state.__dict__.copy()


def from_fields(fields: dict[str, object]) -> State:
    """The state with these fields (a changed copy from ``fields_of``)."""
    new = _new_object(State)
    _set_fields(new, fields)
    return new


_new_object = object.__new__
# The setter of the instance dictionary itself, which the frozen
# ``__setattr__`` does not guard: a call to it costs a little less than
# ``object.__setattr__(new, "__dict__", fields)``, on every move.
_set_fields = vars(State)["__dict__"].__set__


def new_game(rules: Rules, first_dealer: int = 0) -> State:
    """A game before its first deal. ``first_dealer`` is drawn by the caller."""
    if type(first_dealer) is not int or not 0 <= first_dealer < rules.players:
        raise ValueError(f"no seat {first_dealer!r} in a {rules.players}-player game")
    return State(rules=rules, first_dealer=first_dealer, totals=(0,) * rules.players)
