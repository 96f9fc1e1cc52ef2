"""What a played-out deal is worth to each seat, for the practice bot
(``IsmctsBot``): the trick difference in Japanese Joker, deal scores with
the pulka's premiums as expected values in the 4-player game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, cast

from ..scoring import deal_score
from ..state import State
from .montecarlo import EXACT_CHANCE, MonteCarloBot

# Share of the other seats' mean deal score a seat's result subtracts.
OPPONENT_WEIGHT = 1 / 3


class PlayedOut(Protocol):
    """A deal played out (a ``BitDeal``): its bids and each seat's tricks."""

    @property
    def bids(self) -> Sequence[int | None]: ...
    @property
    def tricks(self) -> Sequence[int]: ...


class Scorers:
    """Each seat's result of a played-out deal, about -1 to 1.

    Japanese Joker: the trick difference over the deal's 18 tricks. The
    4-player game with premiums and each player for itself: ``Premiums``.
    Otherwise (pairs, home scoring) ``MonteCarloBot``'s value of the deal
    for that seat (its deal score, with its partner's in pairs and a share
    of the pulka premium it still plays for, less a third of the others').
    Over the best score the deal allows. All of it is public: bids, tricks
    and the scoresheet.
    """

    def __init__(self, state: State) -> None:
        rules = state.rules
        self.japanese = rules.is_japanese
        self.premiums: Premiums | None = None
        if self.japanese:
            return
        self.scale = 100.0 * state.cards_each + 50.0
        self.known: dict[tuple[int | None, ...], list[float]] = {}
        if rules.scoring == "online" and not rules.pairs:
            self.premiums = Premiums(state)
        else:
            scorer = MonteCarloBot(premium=True, opponent_weight=OPPONENT_WEIGHT)
            self.scores = [scorer._scorer(state, s) for s in range(rules.players)]

    def __call__(self, sim: PlayedOut) -> list[float]:
        tricks = sim.tricks
        if self.japanese:
            return [(tricks[0] - tricks[1]) / 18, (tricks[1] - tricks[0]) / 18]
        # Playouts end in a few ways only (the bids are mostly fixed and the
        # tricks spread little), so each is scored once.
        key = (*sim.bids, *tricks)
        values = self.known.get(key)
        if values is None:
            values = self.known[key] = self._score(sim.bids, tricks)
        return values

    def _score(self, bids: Sequence[int | None], tricks: Sequence[int]) -> list[float]:
        scale = self.scale
        if self.premiums is not None:
            # Every seat has bid once the deal is played out.
            values = self.premiums(cast("Sequence[int]", bids), tricks)
            share = OPPONENT_WEIGHT / (len(values) - 1)
            total = sum(values)
            return [(value - share * (total - value)) / scale for value in values]
        return [score(bids, tricks) / scale for score in self.scores]


class Premiums:
    """Every seat's deal score plus what the deal does to the pulka's
    premiums (RULES.md 2.8), as expected values: a seat still exact after
    this deal keeps its premium with ``EXACT_CHANCE`` per deal left in the
    pulka and then adds its best deal score; with deductions, a seat that
    loses its premium while exactly one other keeps it loses its own best
    score."""

    def __init__(self, state: State) -> None:
        rules = state.rules
        self.rules = rules
        self.cards = state.cards_each
        self.pulka = rules.pulka_of(state.deal_index)
        bounds = rules.pulka_bounds(self.pulka)
        earlier = state.deals[bounds.start :]
        self.keep = EXACT_CHANCE ** (bounds.stop - state.deal_index - 1)
        seats = range(rules.players)
        self.on = [all(d.tricks[s] == d.bids[s] for d in earlier) for s in seats]
        self.best = [max((d.scores[s] for d in earlier), default=None) for s in seats]
        self.deductions = rules.deductions

    def __call__(self, bids: Sequence[int], tricks: Sequence[int]) -> list[float]:
        rules, cards, pulka = self.rules, self.cards, self.pulka
        players = len(bids)
        points = [
            deal_score(rules, bids[s], tricks[s], cards, pulka) for s in range(players)
        ]
        best = [
            points[s] if (known := self.best[s]) is None else max(points[s], known)
            for s in range(players)
        ]
        keeps = [
            self.keep if self.on[s] and tricks[s] == bids[s] else 0.0
            for s in range(players)
        ]
        values = [points[s] + keeps[s] * best[s] for s in range(players)]
        if self.deductions and any(keeps):
            for s in range(players):
                if best[s] <= 0 or keeps[s] == 1.0:
                    continue
                # Exactly one other seat on premium at the end of the pulka.
                alone = 0.0
                for other in range(players):
                    if other == s or not keeps[other]:
                        continue
                    chance = keeps[other]
                    for third in range(players):
                        if third not in (s, other):
                            chance *= 1.0 - keeps[third]
                    alone += chance
                values[s] -= (1.0 - keeps[s]) * alone * best[s]
        return values
