"""Deal scores, pulka premiums and final places, as pure functions."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from .jsontypes import JsonObject
from .rules import Rules


def deal_score(rules: Rules, bid: int, took: int, cards: int, pulka: int) -> int:
    """One player's score for one deal, before premiums (RULES.md 2.7)."""
    if rules.scoring != "online":
        return _home_score(rules.scoring, bid, took)
    if took == bid:
        if bid == 0:
            return 50
        if bid == cards and rules.full_take_bonus:
            return 100 * bid
        return 50 + 50 * bid
    if took == 0:
        return -hisht_penalty(rules, cards, pulka)
    return 10 * took


def hisht_penalty(rules: Rules, cards: int, pulka: int) -> int:
    """The penalty for bidding and taking nothing. ``pulka`` is 0-based."""
    penalty = rules.hisht_penalty
    if penalty == "alternating":
        return 200 if pulka % 2 == 0 else 500
    if penalty == "dynamic":
        return 100 * cards
    return int(penalty)


def _home_score(scoring: str, bid: int, took: int) -> int:
    if took == bid:
        return 5 if bid == 0 else 10 * took
    if took > bid:
        return took
    if scoring == "home-missing":
        return -10 * (bid - took)
    return -10 * bid


@dataclass(frozen=True, slots=True)
class PulkaResult:
    pulka: int  # 1-based, as shown to players
    premium: tuple[bool, ...]
    bonus: tuple[int, ...]
    deduction: tuple[int, ...]

    def to_json(self) -> JsonObject:
        return {
            "pulka": self.pulka,
            "premium": list(self.premium),
            "bonus": list(self.bonus),
            "deduction": list(self.deduction),
        }


class ScoredDeal(Protocol):
    """What a premium needs of a finished deal (the state's ``DealResult``,
    which holds pulka results, so this module names it only by shape)."""

    @property
    def bids(self) -> Sequence[int]: ...

    @property
    def tricks(self) -> Sequence[int]: ...

    @property
    def scores(self) -> Sequence[int]: ...


def pulka_premiums(
    rules: Rules, pulka: int, deals: Sequence[ScoredDeal]
) -> PulkaResult:
    """Premiums at the end of pulka ``pulka`` (0-based) from its deal results."""
    seats = range(rules.players)
    premium = tuple(all(d.tricks[s] == d.bids[s] for d in deals) for s in seats)
    best = [max(d.scores[s] for d in deals) for s in seats]
    if rules.scoring != "online":
        zero = (0,) * rules.players
        return PulkaResult(pulka + 1, premium, zero, zero)
    bonus = tuple(best[s] if premium[s] else 0 for s in seats)
    losers = _deducted_seats(rules, premium)
    deduction = tuple(max(best[s], 0) if s in losers else 0 for s in seats)
    return PulkaResult(pulka + 1, premium, bonus, deduction)


def _deducted_seats(rules: Rules, premium: tuple[bool, ...]) -> set[int]:
    if not rules.deductions:
        return set()
    if rules.pairs:
        teams_on_premium = {seat % 2 for seat, on in enumerate(premium) if on}
        if len(teams_on_premium) != 1:
            return set()
        return {seat for seat in range(4) if seat % 2 not in teams_on_premium}
    if sum(premium) != 1:
        return set()
    return {seat for seat, on in enumerate(premium) if not on}


def places(
    totals: Sequence[int],
    left: Collection[int],
    teams: Sequence[int] | None = None,
) -> list[int]:
    """Competition ranking, 1 = best; every leaver's side ranks below the rest.

    ``teams`` maps a seat to its side (pairs); sides are ranked by their summed
    totals and each seat gets its side's place.
    """
    seats = range(len(totals))
    side = teams or list(seats)
    side_total = {s: 0 for s in side}
    side_left = {s: False for s in side}
    for seat in seats:
        side_total[side[seat]] += totals[seat]
        side_left[side[seat]] |= seat in left

    def key(seat: int) -> tuple[bool, int]:
        return (side_left[side[seat]], -side_total[side[seat]])

    return [1 + sum(key(other) < key(seat) for other in seats) for seat in seats]


def japanese_points(tricks: Sequence[int]) -> list[int]:
    """The deal winner scores the difference in tricks; 9-9 scores nothing."""
    a, b = tricks
    return [max(a - b, 0), max(b - a, 0)]
