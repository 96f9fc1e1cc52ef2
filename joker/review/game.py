"""A seat's decisions in a game record reviewed, with a summary per deal
and for the game (docs/review.md)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final, cast

from ..actions import Action, Bid, NameTrump, PlayCard
from ..bots import autopilot, bitsample, ismcts, montecarlo, results
from ..bots._core import SOURCE_DIGEST
from ..game import apply
from ..jsontypes import JsonObject
from ..record import Replay, replay
from ..state import OVER, State, new_game
from .decision import DEFAULT_DEALS, HINDSIGHT_TRICKS, Decision, review_decision
from .stats import GRADE_NAMES, accuracy

# Raised whenever the review's own judgement changes (its statistics,
# grades, units or output); the bot's part of the version follows its
# sources by itself (``version``).
REVIEW_VERSION: Final = 1
# The Python pieces of the practice bot a review's numbers depend on,
# beside the compiled core.
_BOT_MODULES = (autopilot, bitsample, ismcts, montecarlo, results)


@cache
def version() -> str:
    """The version a stored review was made with: the review's own and a
    digest of the bot it judges with (the compiled core's source digest and
    the sources of its Python pieces). A review of another version is out
    of date and can be made again."""
    digest = hashlib.sha256(SOURCE_DIGEST.encode())
    for module in _BOT_MODULES:
        digest.update(Path(cast("str", module.__file__)).read_bytes())
    return f"{REVIEW_VERSION}-{digest.hexdigest()[:12]}"


@dataclass(frozen=True)
class Summary:
    """Some decisions summed up (a deal's, or the game's when ``deal`` is
    None): points (or tricks) lost per decision and the accuracy, both over
    the decisions that were not forced, and the flags of each grade."""

    deal: int | None
    decisions: int
    forced: int
    loss: float | None
    accuracy: float | None
    grades: dict[str, int]

    def to_json(self) -> JsonObject:
        return {
            "deal": self.deal,
            "decisions": self.decisions,
            "forced": self.forced,
            "loss": None if self.loss is None else round(self.loss, 3),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "grades": dict(self.grades),
        }


def summarize(unit: str, decisions: Sequence[Decision], deal: int | None) -> Summary:
    """Loss per decision is the mean of the choices' estimated losses,
    accuracy the mean of each decision's accuracy (docs/review.md)."""
    free = [d for d in decisions if not d.forced]
    grades = {name: sum(d.grade == name for d in free) for name in GRADE_NAMES}
    loss = math.fsum(d.loss for d in free) / len(free) if free else None
    score = (
        math.fsum(accuracy(unit, d.loss) for d in free) / len(free) if free else None
    )
    forced = len(decisions) - len(free)
    return Summary(deal, len(decisions), forced, loss, score, grades)


@dataclass(frozen=True)
class GameReview:
    """A seat's review of a game: its decisions, a summary per deal and one
    for the game, and how it was made (version, depth, seed)."""

    version: str
    profile: str
    options: JsonObject
    seat: int
    unit: str
    deals: int
    seed: int
    hindsight_tricks: int | None
    decisions: tuple[Decision, ...]
    per_deal: tuple[Summary, ...]
    summary: Summary

    def to_json(self) -> JsonObject:
        return {
            "version": self.version,
            "profile": self.profile,
            "options": dict(self.options),
            "seat": self.seat,
            "unit": self.unit,
            "deals": self.deals,
            "seed": self.seed,
            "hindsight_tricks": self.hindsight_tricks,
            "decisions": [d.to_json() for d in self.decisions],
            "per_deal": [s.to_json() for s in self.per_deal],
            "summary": self.summary.to_json(),
        }


def positions(played: Replay) -> Iterator[tuple[State, list[Action], Action]]:
    """Every action of a replayed record with the state before it and the
    deal's actions before it."""
    state = new_game(played.state.rules, played.state.first_dealer)
    for deal, actions in played.history:
        state = apply(state, deal)
        for number, action in enumerate(actions):
            yield state, actions[:number], action
            state = apply(state, action)


def review_game(
    record: JsonObject,
    seat: int,
    deals: int | None = None,
    seed: int = 0,
    hindsight: bool = True,
    only: Collection[int] | None = None,
    partial: bool = False,
) -> GameReview:
    """Review every decision ``seat`` made in a game record (RECORD.md):
    naming trump, bids, cards and jokers' modes, each on ``deals`` sampled
    deals (by default ``DEFAULT_DEALS`` of the game). ``only`` limits it to
    some deals (by index); ``seed`` makes it reproducible; ``hindsight``
    adds the open-cards view of the last tricks.
    Moves made for the seat after it left are not its decisions.

    The record is replayed and checked first (``RecordError``); an
    unfinished game is refused unless ``partial``: its hidden cards are
    still secret."""
    played = replay(record)
    if played.state.phase != OVER and not partial:
        raise ValueError("the game is not over: it has no review yet")
    rules = played.state.rules
    game = "japanese" if rules.is_japanese else "classic"
    if deals is None:
        deals = DEFAULT_DEALS[game]
    if not 0 <= seat < rules.players:
        raise ValueError(f"no seat {seat} in a {rules.players}-player game")
    reviewed: list[Decision] = []
    for state, before, action in positions(played):
        if not isinstance(action, NameTrump | Bid | PlayCard):
            continue
        if action.seat != seat or seat in state.left:
            continue
        if only is not None and state.deal_index not in only:
            continue
        reviewed.append(
            review_decision(
                state,
                before,
                action,
                deals,
                decision_seed(seed, state.deal_index, len(before)),
                hindsight,
            )
        )
    unit = "tricks" if rules.is_japanese else "points"
    by_deal: dict[int, list[Decision]] = {}
    for decision in reviewed:
        by_deal.setdefault(decision.deal, []).append(decision)
    return GameReview(
        version(),
        rules.profile,
        dict(rules.options),
        seat,
        unit,
        deals,
        seed,
        HINDSIGHT_TRICKS[game] if hindsight else None,
        tuple(reviewed),
        tuple(summarize(unit, ds, index) for index, ds in sorted(by_deal.items())),
        summarize(unit, reviewed, None),
    )


def decision_seed(seed: int, deal: int, number: int) -> int:
    """The playouts' seed of one decision: drawn from the review's seed and
    the decision's place in the record, so that a review made again, or of
    one deal alone, samples the same deals."""
    text = f"review:{seed}:{deal}:{number}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")
