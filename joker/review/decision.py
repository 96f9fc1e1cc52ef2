"""One decision reviewed: every legal alternative played on the same deals
sampled from what the seat knew, its expected result, the best one and
what the choice lost; optionally what the real deal allowed on open cards.

The fair part reads the position only through the practice bot's public
pieces: ``DealSampler`` works out what the seat to move knows (its own
cards, the cards played, the voids shown, the bids) and ``Playouts``
deals the hidden cards from that, plays each candidate on every sampled
deal and plays the rest out as the bot does. The real hidden cards are
read only by the hindsight part, which is reported apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..actions import Action, Bid, Choice, NameTrump, PlayCard, offer_to_json
from ..bots.bitdeal import BitDeal
from ..bots.bits import play_code, trump_index
from ..bots.bitsample import DealSampler
from ..bots.core import CoreDeal, Playouts, solve_deal
from ..bots.ismcts import SOLVE_FROM, SOLVE_TRICKS
from ..bots.results import Scorers
from ..cards import DECK, RANKS, rank_of
from ..game import legal_actions
from ..jsontypes import JsonObject
from ..state import BID, PLAY, TRUMP, State
from .stats import NONE_LOST, POINTS, TRICKS, Paired, accuracy, grade, paired

Kind = Literal["trump", "bid", "card"]
KINDS: dict[str, Kind] = {TRUMP: "trump", BID: "bid", PLAY: "card"}

# Sampled deals a decision is judged on, by game. In the 4-player game a
# sampled deal (every candidate played out on it) costs about 10
# microseconds, and at 10,000 deals a 9-card deal's review takes about a
# CPU second for one seat, with a loss's interval about 5 points wide.
# In Japanese Joker every playout solves its last three tricks, about 50
# microseconds a sampled deal, and the trick counts vary less: 2,000 deals
# keep a loss's interval under a tenth of a trick wide, and a deal's
# review about a CPU second (benchmarks/README.md#reviewpy).
DEFAULT_DEALS: dict[str, int] = {"classic": 10000, "japanese": 2000}
# Hindsight (every card face up, each seat playing its best) is solved for
# the card decisions of the deal's last tricks only: the solver looks at
# every line of play. Measured over every card decision of random play:
# the 4-player game's last four tricks take 2 ms a decision, 89 ms at
# worst, and five took 15 s at worst; Japanese Joker's last six, 2 ms and
# 26 ms at worst (docs/review.md).
HINDSIGHT_TRICKS: dict[str, int] = {"classic": 4, "japanese": 6}
DECK_SET = frozenset(DECK)


@dataclass(frozen=True)
class Alternative:
    """One legal choice (standing for the choices that do exactly the same,
    ``same``): its expected result from the seat's knowledge, what it loses
    against the best with a 95 % interval, and its value in hindsight."""

    move: JsonObject
    same: tuple[JsonObject, ...]
    value: float | None
    loss: float
    low: float
    high: float
    hindsight: float | None = None

    def to_json(self) -> JsonObject:
        return {
            "move": self.move,
            "same": list(self.same),
            "value": _rounded(self.value),
            "loss": _rounded(self.loss),
            "low": _rounded(self.low),
            "high": _rounded(self.high),
            "hindsight": _rounded(self.hindsight),
        }


@dataclass(frozen=True)
class Decision:
    """A seat's decision judged from what it knew.

    ``loss`` is the best alternative's expected result less the chosen
    one's (a paired mean over ``deals`` sampled deals, in the game's unit),
    ``low``/``high`` its 95 % interval; ``grade`` is set only when ``low``
    is above a grade's threshold. A forced decision (one legal choice, or
    only choices that do the same) is never graded. ``hindsight_best`` and
    ``hindsight_loss`` are what the real deal allowed on open cards, for
    card decisions of the last tricks only; they take no part in the grade.
    ``deal`` and ``number`` place the decision in the record (the deal's
    index, the action's in the deal), ``trick`` is the trick a card goes to
    (from 0).
    """

    deal: int
    number: int
    trick: int | None
    seat: int
    kind: Kind
    move: JsonObject
    best: JsonObject
    forced: bool
    loss: float
    low: float
    high: float
    grade: str | None
    accuracy: float | None
    deals: int
    alternatives: tuple[Alternative, ...]
    hindsight_best: JsonObject | None = None
    hindsight_loss: float | None = None

    def fair_json(self) -> JsonObject:
        """The review without hindsight: everything judged from the seat's
        knowledge alone."""
        data = self.to_json()
        del data["hindsight_best"], data["hindsight_loss"]
        for alternative in data["alternatives"]:
            del alternative["hindsight"]
        return data

    def to_json(self) -> JsonObject:
        return {
            "deal": self.deal,
            "number": self.number,
            "trick": self.trick,
            "seat": self.seat,
            "kind": self.kind,
            "move": self.move,
            "best": self.best,
            "forced": self.forced,
            "loss": _rounded(self.loss),
            "low": _rounded(self.low),
            "high": _rounded(self.high),
            "grade": self.grade,
            "accuracy": _rounded(self.accuracy),
            "deals": self.deals,
            "alternatives": [a.to_json() for a in self.alternatives],
            "hindsight_best": self.hindsight_best,
            "hindsight_loss": _rounded(self.hindsight_loss),
        }


def _rounded(value: float | None) -> float | None:
    # Stored reviews need no more than this, and equal reviews compare equal.
    return None if value is None else round(value, 3)


def game_of(state: State) -> str:
    """The game a state is of, as the bots' settings are keyed."""
    return "japanese" if state.rules.is_japanese else "classic"


def unit_of(state: State) -> str:
    return TRICKS if state.rules.is_japanese else POINTS


def review_decision(
    state: State,
    deal_actions: Sequence[Action],
    action: Choice,
    deals: int | None = None,
    seed: int = 0,
    hindsight: bool = True,
    deal: int | None = None,
    number: int | None = None,
) -> Decision:
    """Review ``action``, the move of ``state.turn`` in ``state``, whose
    deal's earlier actions are ``deal_actions``, on ``deals`` sampled deals
    (``DEFAULT_DEALS`` of the game by default) drawn with ``seed`` (an
    unsigned 64-bit number)."""
    seat = state.turn
    if seat is None or action.seat != seat:
        raise ValueError("the action is not the move of the seat on turn")
    if deals is None:
        deals = DEFAULT_DEALS[game_of(state)]
    if deals < 2:
        raise ValueError("a review needs at least two sampled deals")
    kind = KINDS[state.phase]
    actions = legal_actions(state)
    if action not in actions:
        raise ValueError(f"{action} is not legal here")
    sampler = DealSampler(state, deal_actions)
    members = _classes(state, actions, sampler.gone) if kind == "card" else {}
    reps = [a for a in actions if a not in members] if members else actions
    chosen = members.get(action, action)
    same = {rep: [a for a in actions if members.get(a, a) == rep] for rep in reps}
    where = (
        state.deal_index if deal is None else deal,
        len(deal_actions) if number is None else number,
        len(state.trick_winners) if kind == "card" else None,
    )
    if len(reps) == 1:
        only = Alternative(
            offer_to_json(chosen),
            tuple(offer_to_json(a) for a in same[chosen] if a != chosen),
            None,
            0.0,
            0.0,
            0.0,
        )
        move = offer_to_json(action)
        return Decision(
            *where, seat, kind, move, move, True, 0.0, 0.0, 0.0, None, None, 0, (only,)
        )
    codes = [_code(rep) for rep in reps]
    solve = 0
    if kind == "card":
        game = game_of(state)
        left = sampler.template.total - sampler.template.done
        solve = SOLVE_TRICKS[game] if left <= SOLVE_FROM[game] else 0
    playouts = Playouts(sampler, seed & (1 << 64) - 1)
    # One deal a call, so that each sampled deal's result for every
    # candidate is kept: the losses are paired over the same deals.
    rows = [playouts.compare(kind, codes, 1, solve=solve)[0] for _ in range(deals)]
    scale, offset = _scale(state)
    n = len(reps)
    means = [offset + scale * sum(row[c] for row in rows) / deals for c in range(n)]
    mine = reps.index(chosen)
    # Ties go to the choice made: an equal choice is never a loss.
    best = max(range(n), key=lambda c: (means[c], c == mine))
    losses = [
        NONE_LOST
        if c == best
        else paired([scale * (row[best] - row[c]) for row in rows])
        for c in range(n)
    ]
    open_values = _hindsight(state, playouts, codes) if hindsight else None
    alternatives = tuple(
        Alternative(
            offer_to_json(reps[c]),
            tuple(offer_to_json(a) for a in same[reps[c]] if a != reps[c]),
            means[c],
            *losses[c],
            hindsight=None if open_values is None else open_values[c],
        )
        for c in sorted(range(n), key=lambda c: (-means[c], c))
    )
    unit = unit_of(state)
    lost: Paired = losses[mine]
    hindsight_best: JsonObject | None = None
    hindsight_loss: float | None = None
    if open_values is not None:
        top = max(range(n), key=lambda c: (open_values[c], c == mine))
        hindsight_best = offer_to_json(reps[top])
        hindsight_loss = open_values[top] - open_values[mine]
    return Decision(
        *where,
        seat,
        kind,
        offer_to_json(action),
        offer_to_json(reps[best]),
        False,
        *lost,
        grade(unit, lost.low),
        accuracy(unit, lost.mean),
        deals,
        alternatives,
        hindsight_best,
        hindsight_loss,
    )


def _code(choice: Choice) -> int:
    """A candidate as ``Playouts.compare`` takes it."""
    if isinstance(choice, NameTrump):
        return trump_index(choice.trump)
    if isinstance(choice, Bid):
        return choice.bid
    return play_code(choice)


def _scale(state: State) -> tuple[float, float]:
    """``Playouts`` results (about -1 to 1) in the game's unit, as scale and
    offset: deal points as ``results.Scorers`` counts them, or in Japanese
    Joker the tricks the seat takes (its result is the trick difference
    over the deal's tricks, which always add up to the cards each)."""
    if state.rules.is_japanese:
        half = state.cards_each / 2
        return half, half
    return Scorers(state).scale, 0.0


def _classes(
    state: State, actions: list[Choice], gone: frozenset[str]
) -> dict[Choice, Choice]:
    """The legal plays that do exactly what another does, each mapped to
    the one standing for them (as the practice bot counts them, see
    ``ismcts._distinct_plays``): of ordinary cards of a suit in the hand
    with no card between them that anyone else could still play, the
    lowest; of the two jokers in the hand, ``X1`` in the same mode."""
    seat = state.turn
    assert seat is not None  # the seat to move
    hand = set(state.hands[seat])
    mine = hand | {up for _, up in state.columns[seat]} if state.columns else hand
    dead = gone | mine
    members: dict[Choice, Choice] = {}
    by_suit: dict[str, list[PlayCard]] = {}
    # Two jokers in the hand play alike, but as their nominal sixes.
    both_jokers = "X1" in hand and "X2" in hand
    for action in actions:
        assert isinstance(action, PlayCard)  # card decisions only
        if both_jokers and action.card == "X2" and action.mode != "nominal":
            members[action] = PlayCard(seat, "X1", action.mode, action.suit)
        elif action.mode is None and action.card in hand:
            by_suit.setdefault(action.card[1], []).append(action)
    for suit, plays in by_suit.items():
        plays.sort(key=lambda play: rank_of(play.card))
        head = plays[0]
        for lower, play in zip(plays, plays[1:], strict=False):
            between = range(rank_of(lower.card) + 1, rank_of(play.card))
            if all(
                RANKS[r] + suit in dead or RANKS[r] + suit not in DECK_SET
                for r in between
            ):
                members[play] = head
            else:
                head = play
    return members


def _hindsight(
    state: State, playouts: Playouts, codes: list[int]
) -> list[float] | None:
    """Each candidate card's result on the real deal, every card face up
    and every seat then playing its own best move to the end (the
    playouts' open-cards solver), for the deal's last
    ``HINDSIGHT_TRICKS`` tricks; None before them and for trump and bids."""
    if state.phase != PLAY:
        return None
    left = state.cards_each - len(state.trick_winners)
    if left > HINDSIGHT_TRICKS[game_of(state)]:
        return None
    seat = state.turn
    assert seat is not None  # the seat to move
    scale, offset = _scale(state)
    real = CoreDeal.of(BitDeal.from_state(state))
    values = []
    for code in codes:
        deal = real.copy()
        deal.play(code)
        for move in solve_deal(playouts, deal.copy()):
            deal.play(move)
        values.append(offset + scale * playouts.score(deal.bids, deal.tricks)[seat])
    return values
