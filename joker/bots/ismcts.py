"""The practice bot: a search over sampled deals within a time budget.

``IsmctsBot(level="normal").choose(state, deal_actions)`` thinks for at most
its level's budget and returns a legal move for ``state.turn``.

What the bot knows is what its seat sees, as for ``MonteCarloBot``: its own
hand, face-up cards, the trick, bids, tricks, trump, the turned card, the
size of every hidden hand, and the deal's earlier actions (``deal_actions``)
with the voids and ``take``-joker limits they reveal. ``DealSampler`` deals
the unseen cards into every hidden place consistently with all of that,
preferring the deals in which the bids already made fit their bidders'
hands. The bot never reads another seat's cards or a face-down card.

All of the search runs in the compiled core (``core.Playouts``), one call
a move: it deals the sampled deals, plays the candidate moves on them,
plays the rest out and scores it, in C, and reads the bot's clock every
``CHECK_EVERY`` deals. Python only works out what the seat knows
(``DealSampler``) and the candidates.

* **Trump**: every trump (the autopilot's choice first) on the same deals,
  the bids in each deal the autopilot's; the best mean result wins.
* **Bids**: every allowed bid, the autopilot's first, on the same deals,
  the later seats bidding as the autopilot would; the best mean result
  wins. In Japanese Joker (trump only: it has no bids) the comparison
  stops once the best leads the next beyond doubt on their paired results.
  Variants (``SearchOptions``) were not shown stronger on duplicate deal
  sets (``benchmarks/bot_ab.py``, docs/engine.md).
* **Cards**: a search tree over the plays from here (information-set
  MCTS, ``Playouts.search``): the root's children are the distinct legal
  cards (two cards of a suit with nothing live between them, or two
  jokers, are one move); on each sampled deal, ``WALKS`` walks down the
  tree, every seat choosing among the plays legal on that deal by its own
  results so far and their upper confidence bound, a new play added to the
  tree at the end of each walk (the autopilot's, when it is new) and the
  rest played out by the autopilot policy, the last tricks on open cards by
  every seat's best move (``SOLVE_TRICKS``). The play walked most wins.
  Sampled deals are preferred by how well they fit the bids made and,
  in the 4-player game, how likely the other seats' plays so far were on
  them (``bitsample.PLAY_MISS``). The tree replaced a flat search (every
  candidate played out on every deal): level with it in the 4-player game
  at equal CPU, ahead in Japanese Joker, where the flat search could not
  use more time (docs/engine.md has the measurements).
* **Results**: the trick difference in Japanese Joker; in the 4-player game
  each seat's deal score with what the deal does to the pulka's premium and
  deductions, as expected values (``results.Premiums``), less a third of the
  other seats' mean.

The bot stops a margin before its budget (on ``timer``: wall time by
default, the benchmarks pass CPU time). The time each move took is in
``thinking`` (seconds, one entry per ``choose``), the deals it sampled for
it in ``iterations`` and the playouts it ran on them in ``playouts`` (a
deal played out once per candidate at a trump or a bid, a walk down the
tree at a card).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, cast

from ..actions import Action, Bid, NameTrump, PlayCard
from ..cards import DECK, RANKS, TRUMP_CHOICES, rank_of
from ..game import legal_actions
from ..state import BID, PLAY, TRUMP, State
from .autopilot import autopilot_action, choose_bid, choose_trump
from .bits import play_code, play_of, trump_index
from .bitsample import DealSampler
from .core import Playouts

# Thinking budget per move, in seconds of the bot's timer, by level and
# game (docs/engine.md has the measurements). Normal is under a tenth of
# the CPU the earlier Python bot used a move (213 ms in the 4-player game,
# 66 ms in Japanese Joker, on bot_strength's deal sets); strong ten times
# normal's; easy about as many deals as the earlier easy level sampled.
LEVELS = {
    "easy": {"classic": 0.002, "japanese": 0.002},
    "normal": {"classic": 0.02, "japanese": 0.0065},
    "strong": {"classic": 0.2, "japanese": 0.065},
}
DEFAULT_LEVEL = "normal"
DECK_SET = frozenset(DECK)
# Kept back from the budget for choosing and returning the move: a share
# of it, and at least MARGIN seconds.
MARGIN = 0.0003
MARGIN_SHARE = 0.05
# Deals between two readings of the clock: each deal is a few
# microseconds to sample and WALKS walks down the search tree, or one
# playout per candidate, of a microsecond or two each; a walk that solves
# its last tricks may cost up to half a millisecond, so then every deal.
CHECK_EVERY = 8
CHECK_EVERY_SOLVING = 1
# The playouts of card play solve their last SOLVE_TRICKS tricks on open
# cards (``Playouts.compare``'s ``solve``) once the deal has no more than
# SOLVE_FROM tricks left, by game: in Japanese Joker always, its last
# three tricks (on duplicate deal sets at 25 ms: four tricks against two
# +0.49 tricks a deal [+0.30, +0.68] over 266 sets, three against four
# -0.20 [-0.45, +0.05] over 200; CPU a move 4, 6 and 9 ms for two, three
# and four: three keeps the normal bot within a tenth of the earlier
# bot's 65 ms; five tricks overrun the budget on one deal's solving), in
# the 4-player game only near the end (a solved playout from the start of
# a 9-card deal costs fifty playouts).
SOLVE_TRICKS = {"classic": 2, "japanese": 3}
SOLVE_FROM = {"classic": 2, "japanese": 18}
# The search tree of card play (``Playouts.search``): walks down the tree
# on each sampled deal, a deal costing several walks to sample, and the
# exploration, in standard deviations of the results seen. Against the
# earlier flat search on the same 100 duplicate deal sets of the 4-player
# game at 25 ms: one walk a deal -3.3 points a deal, eight +3.3; eight
# with exploration 0.5 -5.5, 2.0 +0.8 (docs/engine.md).
WALKS = 8
EXPLORATION = 1.0


@dataclass(frozen=True)
class SearchOptions:
    """The search's knobs, for trying variants side by side
    (``benchmarks/bot_ab.py``); the defaults are the bot's.

    ``bid_budget``, ``trump_budget``: a bid's and a trump's thinking, as a
    multiple of the move budget. ``bid_search``, ``trump_search``: ``flat``
    (every candidate played out by the autopilot on every deal) or ``tree``
    (the candidates at the root of the card play's search tree,
    ``Playouts.search``, the plays after them searched). ``bid_solve``:
    the last tricks a bid's or trump's playouts solve on open cards in the
    4-player game, whatever the deal's size; -1: the flat search none, the
    tree as the card play does (``SOLVE_TRICKS`` on a deal of
    ``SOLVE_FROM`` tricks at most). ``solve_from``: the card play's
    ``SOLVE_FROM`` in the 4-player game (-1: the bot's). ``walks``: the
    card play's walks down its tree on each sampled deal (``WALKS``; 1 is
    an iteration as OpenSpiel's ISMCTS has it, a deal of its own each).
    """

    bid_budget: float = 1.0
    trump_budget: float = 1.0
    bid_search: str = "flat"
    trump_search: str = "flat"
    bid_solve: int = -1
    solve_from: int = -1
    walks: int = WALKS


class IsmctsBot:
    """A budgeted practice bot; ``level`` is ``easy``, ``normal`` or
    ``strong`` (its budget a move by game, ``LEVELS``), or ``budget`` gives
    the seconds per move directly, whatever the game.

    ``max_iterations`` caps the deals sampled a move as well (for tests
    that want reproducible moves); ``rng`` makes the bot reproducible;
    ``options`` changes the search (``SearchOptions``).
    """

    def __init__(
        self,
        level: str = DEFAULT_LEVEL,
        budget: float | None = None,
        rng: random.Random | None = None,
        max_iterations: int | None = None,
        timer: Callable[[], float] = time.perf_counter,
        options: SearchOptions | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}: one of {list(LEVELS)}")
        if budget is not None and budget <= 0:
            raise ValueError("the budget must be positive")
        self.level = level
        self.budget = budget
        self.rng = rng if rng is not None else random.Random(0)
        self.max_iterations = max_iterations
        self.timer = timer
        self.options = options if options is not None else SearchOptions()
        self.thinking: list[float] = []
        self.iterations: list[int] = []
        self.playouts: list[int] = []

    def __call__(
        self, state: State, deal_actions: Sequence[Action] | None = None
    ) -> Action:
        return self.choose(state, deal_actions)

    def budget_for(self, state: State) -> float:
        """The seconds this bot thinks a move in ``state``'s game."""
        if self.budget is not None:
            return self.budget
        return LEVELS[self.level]["japanese" if state.rules.is_japanese else "classic"]

    def choose(
        self, state: State, deal_actions: Sequence[Action] | None = None
    ) -> Action:
        """The move for ``state.turn``, from what that seat may see."""
        start = self.timer()
        actions = legal_actions(state)
        if not actions:
            raise ValueError("no seat is to move in this state")
        budget = self.budget_for(state)
        if len(actions) > 1 and state.phase == BID:
            budget *= self.options.bid_budget
        elif len(actions) > 1 and state.phase == TRUMP:
            budget *= self.options.trump_budget
        deadline = start + budget - max(MARGIN, MARGIN_SHARE * budget)
        search = _Search(self, state, deal_actions, deadline)
        action: Action
        if len(actions) == 1:
            action = actions[0]
        elif state.phase == TRUMP:
            action = search.trump()
        elif state.phase == BID:
            # legal_actions lists the phase's own kind of action.
            action = search.bid(cast("list[Bid]", actions))
        elif state.phase == PLAY:
            action = search.card(cast("list[PlayCard]", actions))
        else:  # pragma: no cover
            raise ValueError(f"no move in phase {state.phase!r}")
        self.thinking.append(self.timer() - start)
        self.iterations.append(search.deals)
        self.playouts.append(search.playouts)
        return action


class _Search:
    """One move's search: the candidates compared in the compiled core on
    the same sampled deals, in one call (``Playouts.compare``)."""

    def __init__(
        self,
        bot: IsmctsBot,
        state: State,
        deal_actions: Sequence[Action] | None,
        deadline: float,
    ) -> None:
        self.bot = bot
        self.state = state
        self.deal_actions = deal_actions
        self.deadline = deadline
        seat = state.turn
        assert seat is not None  # a seat has legal actions on its turn only
        self.seat = seat
        self.japanese = state.rules.is_japanese
        self.deals = 0
        self.playouts = 0
        self._sampler: DealSampler | None = None

    @property
    def sampler(self) -> DealSampler:
        if self._sampler is None:
            self._sampler = DealSampler(self.state, self.deal_actions)
        return self._sampler

    def best(self, kind: Literal["trump", "bid"], candidates: list[int]) -> int:
        """The candidate with the best mean result; the first (the first
        guess) without a single deal in time. Japanese Joker stops once the
        best is clearly ahead; the 4-player game's deal scores hang on rare
        big swings (a hisht, a bid made or missed by one trick) that a few
        deals cannot measure, so it uses the whole budget."""
        bot = self.bot
        cap = bot.max_iterations if bot.max_iterations is not None else 1 << 40
        playouts = Playouts(self.sampler, bot.rng.getrandbits(64))
        solve = self.solve(tree=False)
        totals, deals = playouts.compare(
            kind,
            candidates,
            cap,
            timer=bot.timer,
            deadline=self.deadline,
            check_every=CHECK_EVERY_SOLVING if solve else CHECK_EVERY,
            stop_early=self.japanese,
            solve=solve,
        )
        self.deals += deals
        self.playouts += deals * len(candidates)
        if not deals:
            return candidates[0]
        return candidates[max(range(len(candidates)), key=totals.__getitem__)]

    def searched(
        self,
        candidates: list[int],
        solve: int,
        kind: Literal["trump", "bid", "card"] = "card",
    ) -> int:
        """The candidate (a play, or a trump or bid of ``kind``) the search
        tree visited most (ties: the best mean result); the first without a
        single deal in time."""
        bot = self.bot
        cap = bot.max_iterations if bot.max_iterations is not None else 1 << 40
        playouts = Playouts(self.sampler, bot.rng.getrandbits(64))
        visits, totals, deals = playouts.search(
            candidates,
            cap,
            timer=bot.timer,
            deadline=self.deadline,
            check_every=CHECK_EVERY_SOLVING if solve else CHECK_EVERY,
            solve=solve,
            exploration=EXPLORATION,
            walks=bot.options.walks,
            kind=kind,
        )
        self.deals += deals
        self.playouts += round(sum(visits))
        if not deals:
            return candidates[0]
        return candidates[
            max(
                range(len(candidates)),
                key=lambda c: (visits[c], totals[c] / visits[c] if visits[c] else 0),
            )
        ]

    def trump(self) -> Action:
        """Every trump (the autopilot's choice first) on the same deals, the
        bids in each deal the autopilot's."""
        guess = choose_trump(self.sampler.own)
        choices = sorted(TRUMP_CHOICES, key=lambda trump: trump != guess)
        codes = [trump_index(trump) for trump in choices]
        if self.bot.options.trump_search == "tree":
            best = self.searched(codes, self.solve(tree=True), "trump")
        else:
            best = self.best("trump", codes)
        return NameTrump(self.seat, choices[codes.index(best)])

    def bid(self, actions: list[Bid]) -> Action:
        """Every allowed bid (the autopilot's first, then the nearest to it)
        on the same deals, the later seats bidding as the autopilot would."""
        state = self.state
        allowed = [action.bid for action in actions]
        trump = state.trump
        assert trump is not None  # bids are made under a trump
        own = choose_bid(state.hands[self.seat], trump, state.cards_each, allowed)
        allowed.sort(key=lambda bid: (abs(bid - own), bid))
        if self.bot.options.bid_search == "tree":
            return Bid(self.seat, self.searched(allowed, self.solve(tree=True), "bid"))
        return Bid(self.seat, self.best("bid", allowed))

    def solve(self, tree: bool | None = None) -> int:
        """The last tricks the playouts solve on open cards from here: at
        a card, or at a trump or bid searched by the ``tree`` or not."""
        if tree is not None and self.bot.options.bid_solve >= 0 and not self.japanese:
            return self.bot.options.bid_solve
        game = "japanese" if self.japanese else "classic"
        template = self.sampler.template
        left = template.total - template.done
        solve_from = SOLVE_FROM[game]
        if not self.japanese and self.bot.options.solve_from >= 0:
            solve_from = self.bot.options.solve_from
        if left > solve_from or tree is False:
            return 0
        return SOLVE_TRICKS[game]

    def card(self, actions: list[PlayCard]) -> Action:
        """The search tree over the distinct legal cards (the last tricks
        solved on open cards, see ``SOLVE_TRICKS``)."""
        state = self.state
        actions = _distinct_plays(state, actions, self.sampler.gone)
        if len(actions) == 1:
            return actions[0]
        guess = autopilot_action(state)
        actions.sort(key=lambda action: action != guess)
        codes = [play_code(action) for action in actions]
        return play_of(self.seat, self.searched(codes, self.solve()))


def _distinct_plays(
    state: State, actions: list[PlayCard], gone: frozenset[str]
) -> list[PlayCard]:
    """The legal plays less those that do exactly what another does: of two
    ordinary cards of a suit in the hand with no card between them that
    anyone else could still play, only the lower is kept; of the two jokers
    in the hand, only the first."""
    seat = state.turn
    assert seat is not None  # the seat to move
    hand = set(state.hands[seat])
    mine = hand | {up for _, up in state.columns[seat]} if state.columns else hand
    dead = gone | mine
    kept: list[PlayCard] = []
    by_suit: dict[str, list[PlayCard]] = {}
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
        previous: int | None = None
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
