"""Game records (RECORD.md): read, replay, report, and write them back."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeAlias, cast

from .actions import Action, Deal, action_from_json, action_to_json, choice_to_json
from .errors import BadDeal, BadRecord, EngineError, WrongAction
from .game import apply, legal_actions
from .jsontypes import JsonObject
from .rules import Rules, make_rules
from .state import DEAL, OVER, State, new_game

# "fairness" is a site's proof that each deal was fixed before play (each
# deal's commitment and salt, see the site's games/fairness.py): it says
# nothing about the rules, so a replay reads past it.
RECORD_KEYS = {"profile", "options", "deals", "fairness"}

# A game's history: each deal's cards and the actions played in it.
History: TypeAlias = list[tuple[Deal, list[Action]]]


class RecordError(EngineError):
    """A record that breaks a rule, located as RECORD.md's error object.

    An ``EngineError`` like the one it wraps, and with its code, so a caller
    that refuses any bad input by catching ``EngineError`` (or
    ``ValueError``) refuses a bad record the same way."""

    def __init__(
        self, error: EngineError, deal: int | None, action: int | None
    ) -> None:
        super().__init__(str(error))
        self.error = error
        self.code = error.code
        self.deal = deal
        self.action = action

    def to_json(self) -> JsonObject:
        return {
            "error": {
                "deal": self.deal,
                "action": self.action,
                "code": self.error.code,
                "message": str(self.error),
            }
        }


@dataclass
class Replay:
    """The outcome of replaying a record: the final state and its history."""

    state: State
    history: History = field(default_factory=list)


def replay(record: JsonObject) -> Replay:
    """Replay a record, checking every action; raise ``RecordError``."""
    state = _start(record)
    deals = record["deals"]
    result = Replay(state)
    for index, deal_data in enumerate(deals):
        try:
            deal = _deal_from_json(state.rules, deal_data)
            if state.phase == OVER:
                raise WrongAction("the game is over: no further deal")
            if state.phase != DEAL:
                raise BadDeal("a deal follows an unfinished deal")
            state = apply(state, deal)
        except EngineError as error:
            raise RecordError(error, index, None) from error
        played: list[Action] = []
        result.history.append((deal, played))
        for number, action_data in enumerate(deal_data["actions"]):
            try:
                action = action_from_json(action_data)
                state = apply(state, action)
            except EngineError as error:
                raise RecordError(error, index, number) from error
            played.append(action)
    result.state = state
    return result


def _start(record: JsonObject) -> State:
    try:
        rules = make_rules(record.get("profile"), record.get("options"))
        seat_key = "first_declarer" if rules.is_japanese else "first_dealer"
        unknown = set(record) - RECORD_KEYS - {seat_key}
        if unknown:
            raise BadRecord(f"unknown key {sorted(unknown)[0]!r} in the record")
        first = record.get(seat_key, 0)
        if type(first) is not int or not 0 <= first < rules.players:
            raise BadRecord(f"{seat_key} must be a seat from 0 to {rules.players - 1}")
        if not isinstance(record.get("deals"), list):
            raise BadRecord("'deals' must be a list")
    except EngineError as error:
        raise RecordError(error, None, None) from error
    return new_game(rules, first)


def _card_list(value: object, what: str) -> list[str]:
    if not isinstance(value, list):
        raise BadRecord(f"{what} must be a list")
    for card in value:
        if not isinstance(card, str):
            raise BadRecord(f"a card in {what} must be a string")
    return value


def _deal_from_json(rules: Rules, data: object) -> Deal:
    """Check a deal's shape (``BadRecord``); the cards are checked on apply."""
    if not isinstance(data, dict):
        raise BadRecord("a deal must be an object")
    allowed = (
        {"hands", "columns", "actions"}
        if rules.is_japanese
        else {
            "hands",
            "turned",
            "actions",
        }
    )
    unknown = set(data) - allowed
    if unknown:
        raise BadRecord(f"unknown key {sorted(unknown)[0]!r} in a deal")
    for key in sorted(allowed - {"turned"}):
        if key not in data:
            raise BadRecord(f"a deal has no {key!r}")
    if not isinstance(data["actions"], list):
        raise BadRecord("'actions' must be a list")
    hands = data["hands"]
    if not isinstance(hands, list):
        raise BadRecord("'hands' must be a list")
    hands = tuple(tuple(_card_list(hand, "a hand")) for hand in hands)
    if rules.is_japanese:
        columns = data["columns"]
        if not isinstance(columns, list):
            raise BadRecord("'columns' must be a list")
        seats = []
        for own in columns:
            if not isinstance(own, list):
                raise BadRecord("each seat's columns must be a list")
            seats.append(tuple(tuple(_card_list(col, "a column")) for col in own))
        # Each column a pair of cards: applying the deal checks it (BadDeal).
        pairs = cast("tuple[tuple[tuple[str, str], ...], ...]", tuple(seats))
        return Deal(hands, None, pairs)
    turned = data.get("turned")
    if turned is not None and not isinstance(turned, str):
        raise BadRecord("'turned' must be a card code or null")
    return Deal(hands, turned)


def result_json(state: State) -> JsonObject:
    """The replay result of RECORD.md for a state."""
    rules = state.rules
    out: JsonObject = {
        "profile": rules.profile,
        "complete": state.phase == OVER,
        "deals": [deal.to_json(rules) for deal in state.deals],
    }
    if not rules.is_japanese:
        out["pulkas"] = [pulka.to_json() for pulka in state.pulkas]
    out["totals"] = list(state.totals)
    if state.left:
        out["left"] = list(state.left)
    if state.phase == OVER:
        out["places"] = list(state.places)
        out["winners"] = state.winners
        if rules.pairs:
            t = state.totals
            out["team_totals"] = [t[0] + t[2], t[1] + t[3]]
    else:
        out["next"] = next_json(state)
    return out


def next_json(state: State) -> JsonObject:
    if state.phase == DEAL:
        who = "declarer" if state.rules.is_japanese else "dealer"
        nxt: JsonObject = {
            "action": "deal",
            "deal": state.deal_index,
            who: state.dealer,
        }
        if not state.rules.is_japanese:
            nxt["cards"] = state.cards_each
        return nxt
    return {
        "action": state.phase,
        "seat": state.turn,
        "legal": [choice_to_json(a) for a in legal_actions(state)],
    }


def record_json(
    rules: Rules, first_dealer: int, history: Iterable[tuple[Deal, list[Action]]]
) -> JsonObject:
    """Write a game's history as a record that ``replay`` reads back."""
    seat_key = "first_declarer" if rules.is_japanese else "first_dealer"
    deals = []
    for deal, actions in history:
        item: JsonObject = {"hands": [list(hand) for hand in deal.hands]}
        if rules.is_japanese:
            item["columns"] = [[list(col) for col in own] for own in deal.columns]
        elif deal.turned is not None:
            item["turned"] = deal.turned
        item["actions"] = [action_to_json(action) for action in actions]
        deals.append(item)
    return {
        "profile": rules.profile,
        "options": dict(rules.options),
        seat_key: first_dealer,
        "deals": deals,
    }
