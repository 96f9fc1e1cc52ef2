"""The practice bot: information-set Monte Carlo tree search within a time budget.

``IsmctsBot(level="normal").choose(state, deal_actions)`` thinks for at most
its level's budget and returns a legal move for ``state.turn``.

What the bot knows is what its seat sees, as for ``MonteCarloBot``: its own
hand, face-up cards, the trick, bids, tricks, trump, the turned card, the
size of every hidden hand, and the deal's earlier actions (``deal_actions``)
with the voids and ``take``-joker limits they reveal. ``Knowledge`` (shared
with ``MonteCarloBot``) deals the unseen cards into every hidden place
consistently with all of that; the bot never reads another seat's cards or a
face-down card.

* **Trump** and **bids** come from an estimate of the tricks the hand takes:
  sampled deals are played out by the autopilot policy for every seat, the
  bot's own tricks counted. A bid is then chosen among the allowed bids near
  that estimate by its mean deal score over the same kind of playouts.
* **Cards** are chosen by single-observer ISMCTS (Cowling, Powley and
  Whitehouse, 2012): each sampled deal, consistent with the bot's
  information, is tried with every one of the bot's legal moves (so that
  they compete on the same deals); below each move an iteration walks down
  a tree of actions shared by all sampled deals, choosing among the actions
  legal in that deal by UCB with availability counts, adds one node and
  plays the deal to its end with the autopilot policy. Every node keeps the
  mean result for the seat that made its action, so opponents play for
  themselves in the tree. The move with the best mean result is played.

The search stops when the next iteration could overrun the budget: the bot
measures its slowest iteration so far and keeps twice that, plus 2 ms, in
hand. The time each move took is in ``thinking`` (seconds, one entry per
``choose``) and the deals it sampled for it in ``iterations``.
"""

from __future__ import annotations

import math
import random
import time

from ..actions import Action, Bid, NameTrump
from ..cards import TRUMP_CHOICES
from ..game import legal_actions
from ..state import BID, PLAY, TRUMP, State
from .autopilot import autopilot_action, choose_bid, choose_trump
from .montecarlo import Knowledge, MonteCarloBot, _all_bids, _bids_after
from .rollout import DealSim

# Thinking budget per move, in seconds.
LEVELS = {"easy": 0.05, "normal": 0.25, "strong": 1.0}
DEFAULT_LEVEL = "normal"
# UCB exploration constant, for results scaled to about [-1, 1].
EXPLORATION = 0.5
# Share of the other seats' mean deal score a seat's result subtracts.
OPPONENT_WEIGHT = 1 / 3
# Bids tried either side of the estimated tricks.
BID_WINDOW = 2


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
        self.thinking: list[float] = []
        self.iterations: list[int] = []

    def __call__(self, state: State, deal_actions=None) -> Action:
        return self.choose(state, deal_actions)

    def choose(self, state: State, deal_actions=None) -> Action:
        """The move for ``state.turn``, from what that seat may see."""
        start = time.perf_counter()
        actions = legal_actions(state)
        if not actions:
            raise ValueError("no seat is to move in this state")
        clock = _Clock(start, self.budget, self.max_iterations)
        if len(actions) == 1:
            action = actions[0]
        else:
            knowledge = Knowledge(state, deal_actions)
            if state.phase == TRUMP:
                action = self._trump(state, knowledge, clock)
            elif state.phase == BID:
                action = self._bid(state, actions, knowledge, clock)
            elif state.phase == PLAY:
                action = self._card(state, actions, knowledge, clock)
            else:  # pragma: no cover
                raise ValueError(f"no move in phase {state.phase!r}")
        self.thinking.append(time.perf_counter() - start)
        self.iterations.append(clock.iterations)
        return action

    # -- trump and bids: estimates from playouts ---------------------------

    def _trump(self, state: State, knowledge: Knowledge, clock: _Clock) -> Action:
        seat = state.turn
        japanese = state.rules.is_japanese
        results = _Scorers(state)
        totals = dict.fromkeys(TRUMP_CHOICES, 0.0)
        counts = dict.fromkeys(TRUMP_CHOICES, 0)
        clock.restart()
        while clock.more():
            deal = knowledge.sample(self.rng)
            for trump in TRUMP_CHOICES:
                bids = None if japanese else _all_bids(deal, trump)
                sim = DealSim.from_state(deal, trump=trump, bids=bids)
                sim.play_out()
                totals[trump] += results(sim)[seat]
                counts[trump] += 1
            clock.tick()
        if not any(counts.values()):
            return NameTrump(seat, _first_guess_trump(knowledge))
        best = max(TRUMP_CHOICES, key=lambda t: totals[t] / max(counts[t], 1))
        return NameTrump(seat, best)

    def _bid(self, state, actions, knowledge: Knowledge, clock: _Clock) -> Action:
        """The estimate first (a quarter of the budget), then the bids near it."""
        seat = state.turn
        allowed = [action.bid for action in actions]
        own = choose_bid(state.hands[seat], state.trump, state.cards_each, allowed)
        took, runs = 0, 0
        half = _Clock(clock.start, clock.budget / 4, clock.cap)
        while half.more():
            deal = knowledge.sample(self.rng)
            sim = DealSim.from_state(deal, bids=_bids_after(deal, seat, own))
            sim.play_out()
            took += sim.tricks[seat]
            runs += 1
            half.tick()
        clock.iterations += half.iterations
        estimate = took / runs if runs else own
        near = [b for b in allowed if abs(b - estimate) <= BID_WINDOW + 0.5]
        candidates = near or [min(allowed, key=lambda b: abs(b - estimate))]
        if len(candidates) == 1:
            return Bid(seat, candidates[0])
        results = _Scorers(state)
        totals = dict.fromkeys(candidates, 0.0)
        clock.restart()
        while clock.more():
            deal = knowledge.sample(self.rng)
            for bid in candidates:
                sim = DealSim.from_state(deal, bids=_bids_after(deal, seat, bid))
                sim.play_out()
                totals[bid] += results(sim)[seat]
            clock.tick()
        if clock.iterations == half.iterations:
            best = min(candidates, key=lambda b: (abs(b - estimate), b))
        else:
            best = max(candidates, key=lambda b: (totals[b], -abs(b - estimate)))
        return Bid(seat, best)

    # -- card play: ISMCTS --------------------------------------------------

    def _card(self, state, actions, knowledge: Knowledge, clock: _Clock) -> Action:
        """ISMCTS, with every root action tried on each sampled deal: the
        bot's own choices then compete on the same deals (as in
        ``MonteCarloBot``), and the tree below each of them is searched."""
        seat = state.turn
        root = {action: _Node(action, seat) for action in actions}
        rng = self.rng
        results = _Scorers(state)
        clock.restart()
        while clock.more():
            deal = DealSim.from_state(knowledge.sample(rng))
            for child in root.values():
                sim = deal.copy()
                sim.play(child.action)
                _iterate(sim, child, rng, results)
            clock.tick()
        if not clock.iterations:
            return autopilot_action(state)
        best = max(root.values(), key=lambda child: child.total / child.visits)
        return best.action


def _iterate(sim: DealSim, node: _Node, rng: random.Random, results) -> None:
    """One ISMCTS iteration below ``node``, whose action ``sim`` has played:
    select down the tree by UCB among the actions legal in this deal, add
    one node, play out with the autopilot policy and back the result up."""
    path = [node]
    while not sim.finished:
        legal = sim.legal()
        untried = [a for a in legal if a not in node.children]
        if untried:
            # The autopilot's move first, so that a new node starts from
            # sensible play rather than a random card.
            action = sim.autopilot_move()
            if action in node.children:
                action = rng.choice(untried)
            child = _Node(action, sim.turn)
            node.children[action] = child
            sim.play(action)
            path.append(child)
            break
        for action in legal:
            node.children[action].available += 1
        node = _select(node, legal)
        sim.play(node.action)
        path.append(node)
    sim.play_out()
    outcome = results(sim)
    for node in path:
        node.visits += 1
        node.total += outcome[node.seat]


class _Node:
    __slots__ = ("action", "seat", "children", "visits", "total", "available")

    def __init__(self, action, seat):
        self.action = action
        self.seat = seat  # the seat that made ``action``
        self.children: dict = {}
        self.visits = 0
        self.total = 0.0
        self.available = 1


def _select(node: _Node, legal) -> _Node:
    """UCB over the children legal in this deal, with availability counts."""
    best, best_value = None, -math.inf
    for action in legal:
        child = node.children[action]
        value = child.total / child.visits + EXPLORATION * math.sqrt(
            math.log(child.available) / child.visits
        )
        if value > best_value:
            best, best_value = child, value
    return best


class _Scorers:
    """Each seat's result of a played-out deal, about -1 to 1.

    Japanese Joker: the trick difference over the deal's 18 tricks. The
    4-player game: ``MonteCarloBot``'s value of the deal for that seat (its
    deal score, with its partner's in pairs and a share of the pulka premium
    it still plays for, less a third of the others'), over the best score the
    deal allows. All of it is public: bids, tricks and the scoresheet.
    """

    def __init__(self, state: State):
        rules = state.rules
        self.japanese = rules.is_japanese
        if not self.japanese:
            scorer = MonteCarloBot(premium=True, opponent_weight=OPPONENT_WEIGHT)
            self.scores = [scorer._scorer(state, s) for s in range(rules.players)]
            self.scale = 100.0 * state.cards_each + 50.0

    def __call__(self, sim: DealSim) -> list[float]:
        tricks = sim.tricks
        if self.japanese:
            return [(tricks[0] - tricks[1]) / 18, (tricks[1] - tricks[0]) / 18]
        bids, scale = sim.bids, self.scale
        return [score(bids, tricks) / scale for score in self.scores]


def _first_guess_trump(knowledge: Knowledge) -> str:
    return choose_trump(knowledge.own)


class _Clock:
    """The thinking budget: ``more()`` is False once another iteration as
    slow as the slowest so far would overrun it (or the cap is reached)."""

    __slots__ = ("start", "budget", "cap", "iterations", "last", "slowest")

    def __init__(self, start: float, budget: float, cap: int | None):
        self.start = start
        self.budget = budget
        self.cap = cap
        self.iterations = 0
        self.last = time.perf_counter()
        self.slowest = 0.0

    def more(self) -> bool:
        if self.cap is not None and self.iterations >= self.cap:
            return False
        now = time.perf_counter()
        # Keep back the slowest iteration, twice over, plus two milliseconds
        # for choosing and returning the move.
        return now + 2 * self.slowest + 0.002 < self.start + self.budget

    def restart(self) -> None:
        """Time the next iteration from now (after work outside the loop)."""
        self.last = time.perf_counter()

    def tick(self) -> None:
        now = time.perf_counter()
        self.slowest = max(self.slowest, now - self.last)
        self.last = now
        self.iterations += 1
