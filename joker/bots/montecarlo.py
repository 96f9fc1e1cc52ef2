"""A stronger bot: determinized Monte Carlo over the autopilot's rollouts.

For every decision the bot deals the cards it cannot see in ``samples``
ways consistent with what it can see, tries every legal action on each of
these deals and plays the rest of the deal with the autopilot policy for
all seats. It picks the action with the best mean result for its own seat:
the deal score (RULES.md 2.7; with its partner's in pairs, and a share of
the pulka premium while the seat is still on premium) in the 4-player game,
the trick difference in Japanese Joker. Every action is tried on the same
sampled deals, so the comparison between actions is fair.

What the bot may see is what ``view`` shows its seat: its own hand (three
cards while naming trump), face-up cards, the current trick, bids, tricks,
trump, the turned card and the number of cards in each hand. The cards
played in earlier tricks of the deal are public too but are not in the
state, so ``choose`` takes the deal's actions so far as ``deal_actions``;
from them the bot also learns which suits a seat has shown out of. Without
them it still plays legally, it only samples from a wider set of cards.
The bot never reads another seat's cards or a face-down card.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Literal, TypeAlias, cast

from ..actions import Action, Bid, Choice, NameTrump, PlayCard
from ..cards import DECK, NO_TRUMP, is_joker, rank_of
from ..game import legal_actions
from ..scoring import deal_score
from ..state import BID, PLAY, TRUMP, State
from ..tricks import demanded_suit
from .autopilot import CARDS_SEEN_BEFORE_TRUMP
from .rollout import DealSim, all_bids, bids_after

DEFAULT_SAMPLES = 32
# Attempts at dealing the unseen cards under the known voids before the
# bot falls back to ignoring them.
SAMPLE_TRIES = 20
# Chance the bot counts on for making its bid exactly in each later deal of
# the pulka, to weigh the premium it would still be playing for.
EXACT_CHANCE = 0.6

# The value of a finished deal for one seat, from its bids and tricks.
Scorer: TypeAlias = Callable[[Sequence[int | None], Sequence[int]], float]
# A hidden place to deal unseen cards into: (kind, seat, number of cards).
Slot: TypeAlias = tuple[Literal["hand", "columns", "down"], int, int]


class MonteCarloBot:
    """``MonteCarloBot(samples=32, rng=random.Random(seed)).choose(state)``.

    ``samples`` is the number of sampled deals per decision; ``rng`` makes
    the bot reproducible (a seed-0 generator when not given). In the
    4-player game ``opponent_weight`` subtracts that share of the other
    seats' deal scores from the bot's own (0: play for its own score only;
    the default third was the strongest against the autopilot), and
    ``premium`` counts, while the seat is still on premium in the pulka, a
    share of the premium bonus for an exact result.

    ``seconds``, when given, bounds the thinking of one decision: once that
    much time has gone by on ``clock`` the bot stops taking more sampled
    deals and picks from those it has tried every action on (always at
    least one). Each sample tries every action before the next is dealt, so
    a decision cut short is still a fair comparison.
    """

    def __init__(
        self,
        samples: int = DEFAULT_SAMPLES,
        rng: random.Random | None = None,
        opponent_weight: float = 1 / 3,
        premium: bool = True,
        seconds: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.samples = samples
        self.rng = rng if rng is not None else random.Random(0)
        self.opponent_weight = opponent_weight
        self.premium = premium
        self.seconds = seconds
        self.clock = clock
        self.samples_used = 0  # in the latest decision

    def __call__(
        self, state: State, deal_actions: Sequence[Action] | None = None
    ) -> Action:
        return self.choose(state, deal_actions)

    def choose(
        self, state: State, deal_actions: Sequence[Action] | None = None
    ) -> Action:
        """The move for ``state.turn``.

        ``deal_actions`` lists the actions of the current deal so far, as the
        table saw them (bids and cards), or is None when they are unknown.
        """
        actions = legal_actions(state)
        if not actions:
            raise ValueError("no seat is to move in this state")
        if len(actions) == 1:
            return actions[0]
        began = self.clock()
        seat = state.turn
        assert seat is not None  # a seat has legal actions on its turn only
        knowledge = Knowledge(state, deal_actions)
        score = self._scorer(state, seat)
        # A sample is a State before card play and a DealSim during it: the
        # ``start`` of each phase gets that kind and the phase's action.
        first: Callable[[State], State | DealSim]
        if state.phase == TRUMP:
            first = _same

            def start(deal: State | DealSim, action: Choice) -> DealSim:
                assert isinstance(deal, State) and isinstance(action, NameTrump)
                bids = None
                if not deal.rules.is_japanese:
                    bids = all_bids(deal, action.trump)
                return DealSim.from_state(deal, trump=action.trump, bids=bids)

        elif state.phase == BID:
            first = _same

            def start(deal: State | DealSim, action: Choice) -> DealSim:
                assert isinstance(deal, State) and isinstance(action, Bid)
                bids = bids_after(deal, action.seat, action.bid)
                return DealSim.from_state(deal, bids=bids)

        elif state.phase == PLAY:
            first = DealSim.from_state

            def start(deal: State | DealSim, action: Choice) -> DealSim:
                assert isinstance(deal, DealSim) and isinstance(action, PlayCard)
                sim = deal.copy()
                sim.play(action)
                return sim

        else:  # pragma: no cover
            raise ValueError(f"no move in phase {state.phase!r}")
        # The samples are dealt before any is played out, so that a bot
        # seeded alike deals alike however soon its time runs out.
        starts = [first(knowledge.sample(self.rng)) for _ in range(self.samples)]
        totals = [0.0] * len(actions)
        self.samples_used = 0
        for deal in starts:
            for index, action in enumerate(actions):
                sim = start(deal, action)
                sim.play_out()
                totals[index] += score(sim.bids, sim.tricks)
            self.samples_used += 1
            if self.seconds is not None and self.clock() - began >= self.seconds:
                break
        # The first of the best, as a strict comparison in action order.
        return actions[totals.index(max(totals))]

    def _scorer(self, state: State, seat: int) -> Scorer:
        """``score(bids, tricks)``: the value of a finished deal for ``seat``."""
        rules = state.rules
        if rules.is_japanese:
            other = 1 - seat

            def japanese(bids: Sequence[int | None], tricks: Sequence[int]) -> float:
                return tricks[seat] - tricks[other]

            return japanese
        n = state.cards_each
        pulka = rules.pulka_of(state.deal_index)
        side = [seat, (seat + 2) % 4] if rules.pairs else [seat]
        others = [s for s in range(4) if s not in side]
        premium = self._premium_weights(state, side) if self.premium else {}
        weight = self.opponent_weight

        def score(bids: Sequence[int | None], tricks: Sequence[int]) -> float:
            # Every seat has bid once the deal is played out.
            made = cast("Sequence[int]", bids)
            value = 0.0
            for s in side:
                points = deal_score(rules, made[s], tricks[s], n, pulka)
                value += points
                if s in premium and tricks[s] == made[s]:
                    best, chance = premium[s]
                    value += chance * max(best, points)
            if weight:
                theirs = sum(
                    deal_score(rules, made[s], tricks[s], n, pulka) for s in others
                )
                value -= weight * theirs / len(others) * len(side)
            return value

        return score

    @staticmethod
    def _premium_weights(
        state: State, side: Sequence[int]
    ) -> dict[int, tuple[int, float]]:
        """For each seat of ``side`` still on premium in this pulka: its best
        deal score so far and the chance it keeps the premium to the end."""
        rules = state.rules
        if rules.scoring != "online":
            return {}
        bounds = rules.pulka_bounds(rules.pulka_of(state.deal_index))
        earlier = state.deals[bounds.start :]
        later = bounds.stop - state.deal_index - 1
        weights: dict[int, tuple[int, float]] = {}
        for s in side:
            if all(deal.tricks[s] == deal.bids[s] for deal in earlier):
                best = max((deal.scores[s] for deal in earlier), default=-(10**9))
                weights[s] = (best, EXACT_CHANCE**later)
        return weights


class Knowledge:
    """What the seat to move knows about the cards of the deal.

    ``sample`` deals the unseen cards into every hidden place (other hands,
    the rest of the trump namer's own hand, face-down cards) and returns a
    full ``State`` built with ``dataclasses.replace``. Only the sizes of
    hidden hands and column lists are read from the state, never their cards.
    """

    def __init__(
        self, state: State, deal_actions: Sequence[Action] | None = None
    ) -> None:
        self.state = state
        rules = state.rules
        seat = state.turn
        assert seat is not None  # the seat to move
        self.seat = seat
        naming = state.phase == TRUMP
        hand = state.hands[seat]
        self.own = tuple(hand[:CARDS_SEEN_BEFORE_TRUMP] if naming else hand)
        earlier = _earlier_plays(state, deal_actions)
        known = list(self.own) + [play.card for play in state.trick]
        if earlier is not None:
            known += [play.card for play in earlier]
        # Hidden places, in a fixed order: (name, seat, number of cards).
        slots: list[Slot] = []
        if len(hand) > len(self.own):
            slots.append(("hand", seat, len(hand) - len(self.own)))
        forced: dict[int, str] = {}
        if rules.is_japanese:
            other = 1 - seat
            slots.append(("hand", other, len(state.hands[other])))
            if naming:
                for s in (seat, other):
                    slots.append(("columns", s, 2 * len(state.columns[s])))
            else:
                for s in (seat, other):
                    known += [up for _, up in state.columns[s]]
                    slots.append(("down", s, len(state.columns[s])))
        else:
            turned = state.turned
            if turned is not None and state.cards_each < 9:
                known.append(turned)  # out of play, seen by all
            elif turned is not None and turned not in known and earlier is not None:
                # Tvaladze: the turned card stays in the dealer's hand until
                # the dealer plays it.
                forced[state.dealer] = turned
                known.append(turned)
            for s in range(4):
                if s != seat:
                    size = len(state.hands[s]) - (s in forced)
                    slots.append(("hand", s, size))
        known_set = set(known)
        self.pool = [card for card in DECK if card not in known_set]
        self.slots = slots
        self.forced = forced
        self.spare = len(self.pool) - sum(size for _, _, size in slots)
        if self.spare < 0:
            raise ValueError("the state has more hidden cards than unseen ones")
        self.limits: dict[int, dict[str, int]] = {}
        if earlier is not None and not rules.is_japanese:
            self.limits = _limits(earlier + list(state.trick), state)

    def sample(self, rng: random.Random) -> State:
        """One full deal consistent with everything the seat knows."""
        places = self._deal(rng)
        state = self.state
        hands: list[list[str]] = [[] for _ in range(state.players)]
        columns: list[list[tuple[str, str]]] = [[] for _ in state.columns]
        hands[self.seat] = list(self.own)
        for (kind, s, _), cards in zip(self.slots, places, strict=True):
            if kind == "hand":
                hands[s] = hands[s] + cards
            elif kind == "columns":
                columns[s] = [(cards[i], cards[i + 1]) for i in range(0, len(cards), 2)]
            else:
                ups = [up for _, up in state.columns[s]]
                columns[s] = list(zip(cards, ups, strict=True))
        for s, card in self.forced.items():
            hands[s].append(card)
        return replace(
            state,
            hands=tuple(tuple(hand) for hand in hands),
            columns=tuple(tuple(own) for own in columns),
        )

    def _deal(self, rng: random.Random) -> list[list[str]]:
        pool = list(self.pool)
        if self.limits:
            for _ in range(SAMPLE_TRIES):
                rng.shuffle(pool)
                limited = self._deal_limited(pool, rng)
                if limited is not None:
                    return limited
        rng.shuffle(pool)
        places: list[list[str]] = []
        start = 0
        for _, _, size in self.slots:
            places.append(pool[start : start + size])
            start += size
        return places

    def _deal_limited(
        self, pool: list[str], rng: random.Random
    ) -> list[list[str]] | None:
        """Deal ``pool`` under the known voids; None when it gets stuck."""
        slots = self.slots
        room = [size for _, _, size in slots] + [self.spare]
        places: list[list[str]] = [[] for _ in room]
        fits: list[tuple[int, str, list[int]]] = []
        for card in pool:
            ok = [
                i
                for i, (kind, s, _) in enumerate(slots)
                if kind != "hand" or _may_hold(self.limits.get(s), card)
            ]
            fits.append((len(ok), card, ok))
        # The most constrained cards first; the shuffle orders the rest.
        fits.sort(key=lambda fit: fit[0])
        spare = len(room) - 1
        for _, card, ok in fits:
            choices = [i for i in ok if room[i]] + ([spare] if room[spare] else [])
            if not choices:
                return None
            weights = [room[i] for i in choices]
            pick = rng.choices(choices, weights)[0]
            room[pick] -= 1
            places[pick].append(card)
        return places[:-1]


def _may_hold(limit: dict[str, int] | None, card: str) -> bool:
    if limit is None or is_joker(card):
        return True
    cap = limit.get(card[1], 8)
    return rank_of(card) <= cap


def _earlier_plays(
    state: State, deal_actions: Sequence[Action] | None
) -> list[PlayCard] | None:
    """The cards of the deal's finished tricks, if ``deal_actions`` fits."""
    if deal_actions is None:
        return None
    plays = [action for action in deal_actions if isinstance(action, PlayCard)]
    done = len(state.trick_winners) * state.players
    if len(plays) != done + len(state.trick) or tuple(plays[done:]) != state.trick:
        return None
    return plays[:done]


def _limits(plays: list[PlayCard], state: State) -> dict[int, dict[str, int]]:
    """Per seat and suit, the highest rank the seat may still hold (-1: none).

    A seat that did not follow the demanded suit has none of it, and none of
    the trump either if it did not trump. After a joker led ``take`` a seat
    that followed holds nothing higher than the card it had to play.
    """
    trump = state.trump
    limits: dict[int, dict[str, int]] = {}
    players = state.players
    for start in range(0, len(plays), players):
        trick = plays[start : start + players]
        assert trump is not None  # cards are played under a trump
        lead = trick[0]
        suit = demanded_suit(lead)
        for play in trick[1:]:
            if is_joker(play.card):
                continue
            seat_limits = limits.setdefault(play.seat, {})
            if play.card[1] != suit:
                seat_limits[suit] = -1
                if trump != NO_TRUMP and play.card[1] != trump:
                    seat_limits[trump] = -1
            elif lead.mode == "take":
                old = seat_limits.get(suit, 8)
                seat_limits[suit] = min(old, rank_of(play.card) - 1)
    return limits


def _same(deal: State) -> State:
    return deal
