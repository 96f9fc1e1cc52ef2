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
  autopilot policy. The tree widens progressively (``_iterate``): a node
  tries the autopilot's move first and others only as its visits grow.
  Every node keeps the mean result for the seat that made its action, so
  opponents play for themselves in the tree. The best mean result wins.
* **Results**: the trick difference in Japanese Joker; in the 4-player game
  each seat's deal score with what the deal does to the pulka's premium and
  deductions, as expected values (``_Premiums``), less a third of the other
  seats' mean.

The bot measures its slowest playout and stops when two more, and a small
margin, would overrun the budget (``_Clock``, on ``timer``: wall time by
default, the benchmark passes CPU time); in Japanese Joker it also stops
once the best move is clearly ahead. The time each move took is in
``thinking`` (seconds, one entry per ``choose``) and the deals it sampled
for it in ``iterations``.
"""

from __future__ import annotations

import math
import random
import time

from ..actions import Action, Bid, NameTrump
from ..cards import DECK, RANKS, TRUMP_CHOICES, rank_of
from ..game import legal_actions
from ..scoring import deal_score
from ..state import BID, PLAY, TRUMP, State
from .autopilot import autopilot_action, choose_bid, choose_trump
from .bitdeal import BitDeal, play_code, play_of
from .bitsample import DealSampler
from .montecarlo import EXACT_CHANCE, MonteCarloBot

# Thinking budget per move, in seconds.
LEVELS = {"easy": 0.05, "normal": 0.25, "strong": 1.0}
DEFAULT_LEVEL = "normal"
DECK_SET = frozenset(DECK)
# Kept back from the budget for choosing and returning the move (besides
# twice the slowest playout): a share of it, and at least MARGIN seconds.
MARGIN = 0.0005
MARGIN_SHARE = 0.05
# UCB exploration constant, for results scaled to about [-1, 1].
EXPLORATION = 0.5
# Visits before a tree node tries a move other than the autopilot's (see
# ``_widened``).
WIDENING = 16
# Share of the other seats' mean deal score a seat's result subtracts.
OPPONENT_WEIGHT = 1 / 3
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
        clock = _Clock(self.timer, start, self.budget, self.max_iterations)
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

    def _trump(self, state: State, knowledge, clock: _Clock) -> Action:
        seat = state.turn
        japanese = state.rules.is_japanese
        results = _Scorers(state)

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

    def _bid(self, state, actions, knowledge, clock: _Clock) -> Action:
        """The estimate first (a quarter of the budget), then the bids near it."""
        seat = state.turn
        allowed = [action.bid for action in actions]
        own = choose_bid(state.hands[seat], state.trump, state.cards_each, allowed)
        took, runs = 0, 0
        quarter = _Clock(clock.timer, clock.start, clock.budget / 4, clock.cap)
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
        results = _Scorers(state)

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

    def _card(self, state, actions, knowledge, clock: _Clock) -> Action:
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
        root = {code: _Node(code, seat) for code in codes}
        rng = self.rng
        results = _Scorers(state)

        def playout(deal, code):
            sim = deal.copy()
            sim.play(code)
            return _iterate(sim, root[code], rng, results)

        best = _compare(
            codes,
            lambda: knowledge.sample(rng),
            playout,
            clock,
            state.rules.is_japanese,
        )
        return guess if best is None else play_of(seat, best)


def _compare(candidates, sample, playout, clock: _Clock, stop_early: bool):
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


def _iterate(sim: BitDeal, node: _Node, rng: random.Random, results) -> float:
    """One ISMCTS iteration below ``node``, whose action ``sim`` has played:
    select down the tree by UCB among the children legal in this deal, add
    one node, play out with the autopilot policy and back the result up.
    Returns the result for the seat that played ``node``'s action.

    The tree widens progressively: a node's first child is the autopilot's
    move (in each sampled deal, where it differs), and a node gets one
    other move to try only as its visits grow (``_widened``). At a few
    dozen deals per move the search is then about a flat Monte Carlo over
    the autopilot's playouts, which is strong; a bigger budget opens up the
    alternatives where they are visited most. (Trying every move of every
    seat at once, as plain UCB does, spends a small budget on random play
    below the root and was clearly weaker in bot_strength.py.)"""
    path = [node]
    while not sim.finished:
        children = node.children
        action = sim.autopilot_move()
        legal = None
        if action not in children:
            expand = True
        elif len(children) < _widened(node.visits):
            legal = sim.legal()
            untried = [a for a in legal if a not in children]
            expand = bool(untried)
            if expand:
                action = rng.choice(untried)
        else:
            expand = False
        if expand:
            child = children[action] = _Node(action, sim.turn)
            sim.play(action)
            path.append(child)
            break
        if len(children) == 1:
            node = children[action]  # the autopilot's move, the only child
            node.available += 1
        else:
            if legal is None:
                legal = sim.legal()
            tried = [a for a in legal if a in children]
            for action in tried:
                children[action].available += 1
            node = _select(node, tried)
        sim.play(node.action)
        path.append(node)
    sim.play_out()
    outcome = results(sim)
    for node in path:
        node.visits += 1
        node.total += outcome[node.seat]
    return outcome[path[0].seat]


def _widened(visits: int) -> int:
    """How many children a node with this many visits may have: one more
    at WIDENING, 4 x WIDENING, 9 x WIDENING visits, and so on."""
    return 1 + math.isqrt(visits // WIDENING)


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
    4-player game with premiums and each player for itself: ``_Premiums``.
    Otherwise (pairs, home scoring) ``MonteCarloBot``'s value of the deal
    for that seat (its deal score, with its partner's in pairs and a share
    of the pulka premium it still plays for, less a third of the others').
    Over the best score the deal allows. All of it is public: bids, tricks
    and the scoresheet.
    """

    def __init__(self, state: State):
        rules = state.rules
        self.japanese = rules.is_japanese
        self.premiums = None
        if self.japanese:
            return
        self.scale = 100.0 * state.cards_each + 50.0
        self.known: dict[tuple, list[float]] = {}
        if rules.scoring == "online" and not rules.pairs:
            self.premiums = _Premiums(state)
        else:
            scorer = MonteCarloBot(premium=True, opponent_weight=OPPONENT_WEIGHT)
            self.scores = [scorer._scorer(state, s) for s in range(rules.players)]

    def __call__(self, sim: BitDeal) -> list[float]:
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

    def _score(self, bids, tricks) -> list[float]:
        scale = self.scale
        if self.premiums is not None:
            values = self.premiums(bids, tricks)
            share = OPPONENT_WEIGHT / (len(values) - 1)
            total = sum(values)
            return [(value - share * (total - value)) / scale for value in values]
        return [score(bids, tricks) / scale for score in self.scores]


class _Premiums:
    """Every seat's deal score plus what the deal does to the pulka's
    premiums (RULES.md 2.8), as expected values: a seat still exact after
    this deal keeps its premium with ``EXACT_CHANCE`` per deal left in the
    pulka and then adds its best deal score; with deductions, a seat that
    loses its premium while exactly one other keeps it loses its own best
    score."""

    def __init__(self, state: State):
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

    def __call__(self, bids, tricks) -> list[float]:
        rules, cards, pulka = self.rules, self.cards, self.pulka
        players = len(bids)
        points = [
            deal_score(rules, bids[s], tricks[s], cards, pulka) for s in range(players)
        ]
        best = [
            points[s] if self.best[s] is None else max(points[s], self.best[s])
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


class _Clock:
    """The thinking budget, on the bot's ``timer``: ``more()`` is False once
    one more playout as slow as the slowest so far, twice over, would overrun
    it (with a margin kept for choosing and returning the move), or once
    ``cap`` deals have been sampled."""

    __slots__ = ("timer", "start", "budget", "cap", "deals", "last", "slowest")

    def __init__(self, timer, start: float, budget: float, cap: int | None):
        self.timer = timer
        self.start = start
        self.budget = budget
        self.cap = cap
        self.deals = 0
        self.last = timer()
        self.slowest = 0.0

    def more(self) -> bool:
        """Whether to sample another deal."""
        if self.cap is not None and self.deals >= self.cap:
            return False
        return self.in_time()

    def in_time(self) -> bool:
        """Whether another playout fits in the budget."""
        reserve = 2 * self.slowest + max(MARGIN, MARGIN_SHARE * self.budget)
        return self.timer() + reserve < self.start + self.budget

    def restart(self) -> None:
        """Time the next playout from now (after work outside the loop)."""
        self.last = self.timer()

    def tick(self) -> None:
        """One playout done (with the deal sampled for it, if any)."""
        now = self.timer()
        self.slowest = max(self.slowest, now - self.last)
        self.last = now
