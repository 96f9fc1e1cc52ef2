"""Actions as value objects, and their JSON form used in records and on the wire."""

from __future__ import annotations

from dataclasses import dataclass
from typing import overload

from .cards import is_card, is_joker
from .errors import BadRecord
from .jsontypes import JsonObject

JOKER_MODES = ("take", "give", "high", "low", "nominal")


@dataclass(frozen=True, slots=True)
class NameTrump:
    seat: int
    trump: str  # a suit letter or "none"


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class PlayCard:
    seat: int
    card: str
    mode: str | None = None  # jokers only
    suit: str | None = None  # jokers led as take or give only


@dataclass(frozen=True, slots=True)
class Resign:
    seat: int


@dataclass(frozen=True, slots=True)
class Rejoin:
    """A seat that left takes its place back (a casual table's choice: the
    engine only checks that the seat had left)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Deal:
    """The chance action: the cards of one deal, from a shuffle or a record.

    ``hands`` lists each seat's cards in dealing order; ``turned`` is the card
    that fixes trump (4-player); ``columns`` are each Japanese player's five
    ``(face_down, face_up)`` pairs.
    """

    hands: tuple[tuple[str, ...], ...]
    turned: str | None = None
    columns: tuple[tuple[tuple[str, str], ...], ...] = ()


Action = NameTrump | Bid | PlayCard | Resign | Rejoin
# The actions a seat chooses from on its turn, as ``legal_actions`` lists them.
Choice = NameTrump | Bid | PlayCard
KIND_OF: dict[type[Action], str] = {
    NameTrump: "trump",
    Bid: "bid",
    PlayCard: "card",
    Resign: "resign",
    Rejoin: "rejoin",
}


def kind_of(action: Action) -> str:
    return KIND_OF[type(action)]


def _exact_int(value: object) -> bool:
    return type(value) is int


def action_from_json(data: object) -> Action:
    """Parse one record action; shape problems raise ``BadRecord``.

    Only the shape is checked here (keys and JSON types, a joker without a
    mode, a mode on an ordinary card). Whether the values are allowed is the
    rules' business and raises ``IllegalAction`` when the action is applied.
    """
    if not isinstance(data, dict):
        raise BadRecord("an action must be an object")
    if "seat" not in data:
        raise BadRecord("action has no 'seat'")
    seat = data["seat"]
    if not _exact_int(seat):
        raise BadRecord("'seat' must be an integer")
    kinds = [key for key in KIND_OF.values() if key in data]
    if len(kinds) != 1:
        raise BadRecord("an action has exactly one of trump, bid, card, resign, rejoin")
    kind = kinds[0]
    allowed = {"seat", kind} | ({"mode", "suit"} if kind == "card" else set())
    unknown = set(data) - allowed
    if unknown:
        raise BadRecord(f"unknown key {sorted(unknown)[0]!r} in a {kind} action")
    value = data[kind]
    if kind == "trump":
        if not isinstance(value, str):
            raise BadRecord("'trump' must be a string")
        return NameTrump(seat, value)
    if kind == "bid":
        if not _exact_int(value):
            raise BadRecord("'bid' must be an integer")
        return Bid(seat, value)
    if kind == "resign":
        if value is not True:
            raise BadRecord("'resign' must be true")
        return Resign(seat)
    if kind == "rejoin":
        if value is not True:
            raise BadRecord("'rejoin' must be true")
        return Rejoin(seat)
    return _card_from_json(seat, value, data.get("mode"), data.get("suit"), data)


def _card_from_json(
    seat: int,
    card: object,
    # As the record gives them: checked below to be strings when present.
    mode: str | None,
    suit: str | None,
    data: JsonObject,
) -> PlayCard:
    if not isinstance(card, str):
        raise BadRecord("'card' must be a string")
    for key in ("mode", "suit"):
        if key in data and not isinstance(data[key], str):
            raise BadRecord(f"{key!r} must be a string")
    if is_card(card):
        if is_joker(card) and mode is None:
            raise BadRecord(f"joker {card} needs a 'mode'")
        if not is_joker(card) and (mode is not None or suit is not None):
            raise BadRecord(f"{card} is not a joker: no mode or suit")
    return PlayCard(seat, card, mode, suit)


def action_to_json(action: Action) -> JsonObject:
    if isinstance(action, PlayCard):
        data: JsonObject = {"seat": action.seat, "card": action.card}
        if action.mode is not None:
            data["mode"] = action.mode
        if action.suit is not None:
            data["suit"] = action.suit
        return data
    if isinstance(action, Resign):
        return {"seat": action.seat, "resign": True}
    if isinstance(action, Rejoin):
        return {"seat": action.seat, "rejoin": True}
    if isinstance(action, Bid):
        return {"seat": action.seat, "bid": action.bid}
    return {"seat": action.seat, "trump": action.trump}


def offer_to_json(action: Action) -> JsonObject:
    """A legal choice as a live client sends it back: the action without
    its seat (``{"trump": "H"}``, ``{"bid": 2}``, ``{"card": "QS"}``)."""
    data = action_to_json(action)
    del data["seat"]
    return data


@overload
def choice_to_json(action: PlayCard) -> JsonObject: ...
@overload
def choice_to_json(action: Bid) -> int: ...
@overload
def choice_to_json(action: NameTrump) -> str: ...
@overload
def choice_to_json(action: Choice) -> JsonObject | int | str: ...
def choice_to_json(action: Choice) -> JsonObject | int | str:
    """A legal choice as a record lists it in ``next.legal`` (RECORD.md):
    bids and trumps as bare values, cards as card actions without seat."""
    if isinstance(action, PlayCard):
        data = action_to_json(action)
        del data["seat"]
        return data
    if isinstance(action, Bid):
        return action.bid
    return action.trump
