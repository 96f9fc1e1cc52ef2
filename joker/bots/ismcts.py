"""The practice bot: information-set Monte Carlo tree search within a time budget.

``IsmctsBot(level="normal").choose(state, deal_actions)`` thinks for at most
its level's budget and returns a legal move for ``state.turn``.

What the bot knows is what its seat sees, as for ``MonteCarloBot``: its own
hand, face-up cards, the trick, bids, tricks, trump, the turned card, the
size of every hidden hand, and the deal's earlier actions (``deal_actions``)
with the voids and ``take``-joker limits they reveal. ``DealSampler`` deals
the unseen cards into every hidden place consistently with all of that,
preferring the deals in which the bids already made fit their bidders'
hands. The bot never reads another seat's cards or a face-down card.

Every playout runs on ``BitDeal``, the deal's card play on bit masks with
the autopilot's policy: several times the playouts of the string-based
``DealSim`` in the same time, which is most of the bot's strength.

* **Trump** and **bids** come from playouts of sampled deals by the
  autopilot policy for every seat: first an estimate of the tricks the hand
  takes, then the allowed bids near it (every trump when naming trump)
  compared on the same deals by their mean result.
* **Cards** are chosen by single-observer ISMCTS (Cowling, Powley and
  Whitehouse, 2012): each sampled deal is tried with every one of the bot's
  distinct legal moves (two cards of a suit with nothing live between them,
  or two jokers, are one move), so that they compete on the same deals;
  below each move an iteration walks down a tree of actions shared by all
  sampled deals, choosing among the children legal in that deal by UCB with
  availability counts, adds one node and plays the deal out with the
  autopilot policy. The tree widens progressively (``tree.iterate``): a node
  tries the autopilot's move first and others only as its visits grow.
  Every node keeps the mean result for the seat that made its action, so
  opponents play for themselves in the tree. The best mean result wins.
* **Results**: the trick difference in Japanese Joker; in the 4-player game
  each seat's deal score with what the deal does to the pulka's premium and
  deductions, as expected values (``results.Premiums``), less a third of the other
  seats' mean.

The bot measures its slowest playout and stops when two more, and a small
margin, would overrun the budget (``budget.Clock``, on ``timer``: wall time by
default, the benchmark passes CPU time); in Japanese Joker it also stops
once the best move is clearly ahead. The time each move took is in
``thinking`` (seconds, one entry per ``choose``) and the deals it sampled
for it in ``iterations``.
"""

from __future__ import annotations

import random
import time

from ..actions import Action, Bid, NameTrump
from ..cards import DECK, RANKS, TRUMP_CHOICES, rank_of
from ..game import legal_actions
from ..state import BID, PLAY, TRUMP, State
from .autopilot import autopilot_action, choose_bid, choose_trump
from .bits import play_code, play_of
from .bitsample import DealSampler
from .budget import Clock
from .results import Scorers
from .tree import Node, iterate

# Thinking budget per move, in seconds.
LEVELS = {"easy": 0.05, "normal": 0.25, "strong": 1.0}
DEFAULT_LEVEL = "normal"
DECK_SET = frozenset(DECK)
# Bids tried either side of the estimated tricks.
BID_WINDOW = 2
# Japanese Joker stops thinking once the best move leads the next by
# DECIDED_Z standard errors, after at least DECIDED_AFTER deals, checking
# every DECIDED_EVERY deals.
DECIDED_Z = 3.0
DECIDED_AFTER = 8
DECIDED_EVERY = 4


class IsmctsBot:
    """A budgeted practice bot; ``level`` is ``easy``, ``normal`` or
    ``strong``, or ``budget`` gives the seconds per move directly.

    ``max_iterations`` caps the search as well (for tests that want
    reproducible moves); ``rng`` makes the bot reproducible.
    """

    def __init__(
        self,
        level: str = DEFAULT_LEVEL,
        budget: float | None = None,
        rng: random.Random | None = None,
        max_iterations: int | None = None,
        timer=time.perf_counter,
    ):
        if budget is None:
            if level not in LEVELS:
                raise ValueError(f"unknown level {level!r}: one of {list(LEVELS)}")
            budget = LEVELS[level]
        if budget <= 0:
            raise ValueError("the budget must be positive")
        self.level = level
        self.budget = budget
        self.rng = rng if rng is not None else random.Random(0)
        self.max_iterations = max_iterations
        self.timer = timer
        self.thinking: list[float] = []
        self.iterations: list[int] = []

    def __call__(self, state: State, deal_actions=None) -> Action:
        return self.choose(state, deal_actions)

    def choose(self, state: State, deal_actions=None) -> Action:
        """The move for ``state.turn``, from what that seat may see."""
        start = self.timer()
        actions = legal_actions(state)
        if not actions:
            raise ValueError("no seat is to move in this state")
        clock = Clock(self.timer, start, self.budget, self.max_iterations)
        if len(actions) == 1:
            action = actions[0]
        else:
            knowledge = DealSampler(state, deal_actions)
            if state.phase == TRUMP:
                action = self._trump(state, knowledge, clock)
            elif state.phase == BID:
                action = self._bid(state, actions, knowledge, clock)
            elif state.phase == PLAY:
                action = self._card(state, actions, knowledge, clock)
            else:  # pragma: no cover
                raise ValueError(f"no move in phase {state.phase!r}")
        self.thinking.append(self.timer() - start)
        self.iterations.append(clock.deals)
        return action

    # -- trump and bids: estimates from playouts ---------------------------

    def _trump(self, state: State, knowledge, clock: Clock) -> Action:
        seat = state.turn
        japanese = state.rules.is_japanese
        results = Scorers(state)

        def playout(deal, trump):
            sim = deal.copy()
            sim.name_trump(trump)
            if not japanese:
                sim.bids = knowledge.all_bids(sim)
            sim.play_out()
            return results(sim)[seat]

        guess = choose_trump(knowledge.own)
        choices = sorted(TRUMP_CHOICES, key=lambda trump: trump != guess)
        best = _compare(
            choices, lambda: knowledge.sample(self.rng), playout, clock, japanese
        )
        return NameTrump(seat, best or guess)

    def _bid(self, state, actions, knowledge, clock: Clock) -> Action:
        """The estimate first (a quarter of the budget), then the bids near it."""
        seat = state.turn
        allowed = [action.bid for action in actions]
        own = choose_bid(state.hands[seat], state.trump, state.cards_each, allowed)
        took, runs = 0, 0
        quarter = Clock(clock.timer, clock.start, clock.budget / 4, clock.cap)
        while quarter.more():
            sim = knowledge.sample(self.rng)
            quarter.deals += 1
            sim.bids = knowledge.bids_after(sim, seat, own)
            sim.play_out()
            took += sim.tricks[seat]
            runs += 1
            quarter.tick()
        clock.deals += quarter.deals
        estimate = took / runs if runs else own
        near = [b for b in allowed if abs(b - estimate) <= BID_WINDOW + 0.5]
        candidates = near or [min(allowed, key=lambda b: abs(b - estimate))]
        candidates.sort(key=lambda b: (abs(b - estimate), b))
        if len(candidates) == 1:
            return Bid(seat, candidates[0])
        results = Scorers(state)

        def playout(deal, bid):
            sim = deal.copy()
            sim.bids = knowledge.bids_after(sim, seat, bid)
            sim.play_out()
            return results(sim)[seat]

        best = _compare(
            candidates, lambda: knowledge.sample(self.rng), playout, clock, False
        )
        if best is None:
            best = min(candidates, key=lambda b: (abs(b - estimate), b))
        return Bid(seat, best)

    # -- card play: ISMCTS --------------------------------------------------

    def _card(self, state, actions, knowledge, clock: Clock) -> Action:
        """ISMCTS, with every root action tried on each sampled deal: the
        bot's own choices then compete on the same deals (as in
        ``MonteCarloBot``), and the tree below each of them is searched."""
        seat = state.turn
        actions = _distinct_plays(state, actions, knowledge.gone)
        if len(actions) == 1:
            return actions[0]
        guess = autopilot_action(state)
        actions.sort(key=lambda action: action != guess)
        # The search plays the integer codes of ``BitDeal``.
        codes = [play_code(action) for action in actions]
        root = {code: Node(code, seat) for code in codes}
        rng = self.rng
        results = Scorers(state)

        def playout(deal, code):
            sim = deal.copy()
            sim.play(code)
            return iterate(sim, root[code], rng, results)

        best = _compare(
            codes,
            lambda: knowledge.sample(rng),
            playout,
            clock,
            state.rules.is_japanese,
        )
        return guess if best is None else play_of(seat, best)


def _compare(candidates, sample, playout, clock: Clock, stop_early: bool):
    """The candidate with the best mean result, ``playout(deal, candidate)``
    on deals from ``sample()``: every candidate on each deal, until the
    budget runs out or, with ``stop_early``, the best is clear. None
    without a single playout. Candidates come first-guess first: when the
    budget ends within the first deal, the best of those tried wins.

    Early stopping is for Japanese Joker, whose results (trick differences)
    spread evenly. The 4-player game's deal scores hang on rare big swings
    (a hisht, a bid made or missed by one trick), which a few deals cannot
    measure: there the search uses its whole budget (stopping early there
    was clearly weaker in bot_strength.py).
    """
    compared = _Candidates(candidates, stop_early)
    clock.restart()
    while clock.more():
        deal = sample()
        clock.deals += 1
        for candidate in candidates:
            if not clock.in_time():
                break
            compared.add(candidate, playout(deal, candidate))
            clock.tick()
        if compared.decided():
            break
    return compared.best()


class _Candidates:
    """The results of moves compared on the same deals, one list each."""

    def __init__(self, candidates, stop_early: bool = True):
        self.results = {candidate: [] for candidate in candidates}
        self.totals = dict.fromkeys(candidates, 0.0)
        self.stop_early = stop_early

    def add(self, candidate, value: float) -> None:
        self.results[candidate].append(value)
        self.totals[candidate] += value

    def _ranked(self) -> list:
        tried = [c for c, values in self.results.items() if values]
        return sorted(
            tried, key=lambda c: self.totals[c] / len(self.results[c]), reverse=True
        )

    def best(self):
        ranked = self._ranked()
        return ranked[0] if ranked else None

    def decided(self) -> bool:
        """Whether the leader is ahead of the runner-up beyond doubt: by
        ``DECIDED_Z`` standard errors of their paired differences, over at
        least ``DECIDED_AFTER`` deals (checked every few deals)."""
        if not self.stop_early:
            return False
        ranked = self._ranked()
        if len(ranked) < 2:
            return len(ranked) == len(self.results) == 1
        first, second = self.results[ranked[0]], self.results[ranked[1]]
        n = min(len(first), len(second))
        if n < DECIDED_AFTER or n % DECIDED_EVERY:
            return False
        diffs = [a - b for a, b in zip(first[:n], second[:n], strict=True)]
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean * mean * n >= DECIDED_Z * DECIDED_Z * variance and (
            mean > 0 or variance == 0
        )


def _distinct_plays(state: State, actions, gone) -> list:
    """The legal plays less those that do exactly what another does: of two
    ordinary cards of a suit in the hand with no card between them that
    anyone else could still play, only the lower is kept; of the two jokers
    in the hand, only the first."""
    seat = state.turn
    hand = set(state.hands[seat])
    mine = hand | {up for _, up in state.columns[seat]} if state.columns else hand
    dead = gone | mine
    kept = []
    by_suit: dict[str, list] = {}
    # Two jokers in the hand play alike, but as their nominal sixes.
    both_jokers = "X1" in hand and "X2" in hand
    for action in actions:
        if both_jokers and action.card == "X2" and action.mode != "nominal":
            continue
        if action.mode is None and action.card in hand:
            by_suit.setdefault(action.card[1], []).append(action)
        else:
            kept.append(action)
    for suit, plays in by_suit.items():
        plays.sort(key=lambda play: rank_of(play.card))
        previous = None
        for play in plays:
            rank = rank_of(play.card)
            if previous is not None and all(
                RANKS[r] + suit in dead or RANKS[r] + suit not in DECK_SET
                for r in range(previous + 1, rank)
            ):
                previous = rank
                continue
            kept.append(play)
            previous = rank
    return kept
