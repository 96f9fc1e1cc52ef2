"""Deals consistent with what a seat knows, dealt straight into ``BitDeal``.

``Knowledge`` (``montecarlo``) works out where the unseen cards may be: the
pool of unseen cards, the hidden places to fill and their sizes, the voids
and ``take``-joker limits the deal has shown. ``DealSampler`` deals that
pool on bit masks, which is several times faster than building a ``State``
per sample, and prefers (``sample``) the deals in which the bids already
made fit their bidders' hands. It also bids for the other seats in a
playout that starts before the bidding is over, as the autopilot would.

Nothing here reads a hidden card: only the sizes of hidden places come from
the state, and every hidden place of a sampled deal is dealt from the pool.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TypeAlias, TypeVar

from ..actions import Action, PlayCard
from ..cards import rank_of
from ..state import BID, State
from .autopilot import (
    ACE,
    KING,
    LONG_TRUMP,
    SIDE_ACE,
    SIDE_ACE_NO_TRUMP,
    SIDE_KING,
    SIDE_KING_NO_TRUMP,
    TRUMP_VALUE,
)
from .bitdeal import BitDeal, Column
from .bits import SUIT_MASK, X1, X2, bit_of, bits_mask, play_code
from .montecarlo import SAMPLE_TRIES, Knowledge, _earlier_plays, _may_hold

# A bid's spread, in tricks, around the autopilot's estimate of the
# bidder's hand, and the deals drawn to find one that fits the bids.
BID_SPREAD = 1.0
INFER_TRIES = 8
# The compiled search's model of the other seats' card play: each earlier
# play is the autopilot's move, or another with this relative likelihood.
PLAY_MISS = 0.5

T = TypeVar("T")
# An unseen card's bit and the hidden places (by slot) that may hold it.
Fit: TypeAlias = tuple[int, tuple[int, ...]]
# A sampled deal's hands (masks) and columns.
Cards: TypeAlias = tuple[list[int], list[list[Column]]]


class DealSampler:
    """``DealSampler(state, deal_actions).sample(rng)``: a ``BitDeal`` of the
    current deal with every hidden card dealt at random, consistently with
    what ``state.turn`` has seen."""

    def __init__(
        self, state: State, deal_actions: Sequence[Action] | None = None
    ) -> None:
        knowledge = Knowledge(state, deal_actions)
        self.state = state
        self.seat = seat = knowledge.seat
        self.own = knowledge.own
        self.players = state.players
        self.cards = state.cards_each
        plays = _earlier_plays(state, deal_actions)
        self.gone = frozenset(play.card for play in plays or ())
        self.slots = knowledge.slots
        self.sizes = [size for _, _, size in self.slots]
        self.spare = knowledge.spare
        pool = [bit_of(card) for card in knowledge.pool]
        self.pool = pool
        # The known part of every hand: the seat's own cards and a turned
        # card the dealer still holds (Tvaladze).
        hands = [0] * state.players
        hands[seat] = bits_mask(bit_of(card) for card in knowledge.own)
        for s, card in knowledge.forced.items():
            hands[s] |= 1 << bit_of(card)
        self.hands = hands
        self.ups = [[bit_of(up) for _, up in own] for own in state.columns]
        # The unseen cards grouped by how many places may hold them (the
        # most constrained first), when the deal has shown voids.
        self.groups: list[list[Fit]] | None = None
        if knowledge.limits:
            by_fit: dict[int, list[Fit]] = {}
            for card, bit in zip(knowledge.pool, pool, strict=True):
                ok = tuple(
                    i
                    for i, (kind, s, _) in enumerate(self.slots)
                    if kind != "hand" or _may_hold(knowledge.limits.get(s), card)
                )
                by_fit.setdefault(len(ok), []).append((bit, ok))
            self.groups = [by_fit[n] for n in sorted(by_fit)]
        # Everything but the cards, which each sample deals.
        self.template = BitDeal.from_parts(state, self.hands, [])
        self.bidders = self._bidders(state, plays)
        self.plays = self._plays(state, plays)

    def _bidders(
        self, state: State, plays: list[PlayCard] | None
    ) -> list[tuple[int, int, int]]:
        """(seat, bid, cards it has played) of the other seats that bid."""
        if state.rules.is_japanese or state.trump is None:
            return []
        if plays is None and state.phase != BID:
            return []
        played = [0] * state.players
        for play in (plays or []) + list(state.trick):
            played[play.seat] |= 1 << bit_of(play.card)
        return [
            (s, bid, played[s])
            for s, bid in enumerate(state.bids)
            if bid is not None and s != self.seat
        ]

    def _plays(
        self, state: State, plays: list[PlayCard] | None
    ) -> list[tuple[int, int]]:
        """(seat, play code) of every card played in the deal so far, in
        order, in the 4-player game when they are all known (the compiled
        search weighs its sampled deals by how likely the other seats'
        plays were, ``PLAY_MISS``)."""
        if state.rules.is_japanese or plays is None:
            return []
        return [(play.seat, play_code(play)) for play in plays + list(state.trick)]

    def sample(self, rng: random.Random) -> BitDeal:
        """One deal; with bids made, one whose bids fit (see module)."""
        if not self.bidders:
            return self._sample(rng)
        trump = self.template.trump
        best: Cards | None = None
        best_misfit = math.inf
        # The fit is judged on the hands alone: only the deal kept is built.
        for _ in range(INFER_TRIES):
            cards = self._cards(rng)
            hands = cards[0]
            misfit = 0.0
            for s, bid, played in self.bidders:
                hand = hands[s] | played
                misfit += (estimate_tricks(hand, trump, self.cards) - bid) ** 2
            misfit /= BID_SPREAD**2
            if rng.random() < math.exp(-misfit / 2):
                return self._build(*cards)
            if misfit < best_misfit:
                best, best_misfit = cards, misfit
        # INFER_TRIES draws: the first misfit is below infinity.
        assert best is not None
        return self._build(*best)

    def _sample(self, rng: random.Random) -> BitDeal:
        """One deal, the bids not considered."""
        return self._build(*self._cards(rng))

    def _cards(self, rng: random.Random) -> Cards:
        """The hands (masks) and columns ((down, up) bits) of one deal."""
        places = self._deal(rng)
        hands = self.hands.copy()
        columns: list[list[Column]] = [[] for _ in self.ups]
        for (kind, s, _), bits in zip(self.slots, places, strict=True):
            if kind == "hand":
                hands[s] |= bits_mask(bits)
            elif kind == "columns":
                columns[s] = [(bits[i], bits[i + 1]) for i in range(0, len(bits), 2)]
            else:
                columns[s] = list(zip(bits, self.ups[s], strict=True))
        return hands, columns

    def _build(self, hands: list[int], columns: list[list[Column]]) -> BitDeal:
        deal = self.template.copy()
        deal.hands = hands
        deal.columns = columns
        deal.ups = [bits_mask(up for _, up in own) for own in columns]
        return deal

    def _deal(self, rng: random.Random) -> list[list[int]]:
        if self.groups is not None:
            for _ in range(SAMPLE_TRIES):
                places = self._deal_limited(rng)
                if places is not None:
                    return places
        return _cut(_shuffled(self.pool, rng), self.sizes)

    def _deal_limited(self, rng: random.Random) -> list[list[int]] | None:
        """The pool dealt under the known voids, the most constrained cards
        first, each into a place that may hold it, chosen with a chance in
        proportion to its room; None when it gets stuck. The cards that any
        place may hold come last and are simply shuffled into the room
        left, which is the same chance for each arrangement."""
        room = [*self.sizes, self.spare]
        spare = len(room) - 1
        places: list[list[int]] = [[] for _ in room]
        random_ = rng.random
        assert self.groups is not None  # dealt under voids only when shown
        for group in self.groups:
            if len(group[0][1]) == spare:  # fits every place
                free = _cut(_shuffled([bit for bit, _ in group], rng), room)
                for place, cards in zip(places, free, strict=True):
                    place += cards
                return places[:-1]
            for bit, ok in _shuffled(group, rng):
                total = room[spare]
                for i in ok:
                    total += room[i]
                if not total:
                    return None
                pick = random_() * total
                chosen = spare
                for i in ok:
                    pick -= room[i]
                    if pick < 0:
                        chosen = i
                        break
                room[chosen] -= 1
                places[chosen].append(bit)
        return places[:-1]

    # -- the other seats' bids in a playout --------------------------------

    def all_bids(self, deal: BitDeal) -> list[int | None]:
        """Every seat's autopilot bid under the deal's trump, from the first
        bidder."""
        state = self.state
        bids: list[int | None] = [None] * self.players
        first = (state.dealer + 1) % self.players
        n = self.cards
        bids[first] = choose_bid(deal.hands[first], deal.trump, n, range(n + 1))
        return self._finish_bidding(deal.hands, bids, first, deal.trump)

    def bids_after(self, deal: BitDeal, seat: int, bid: int) -> list[int | None]:
        """The bids once ``seat`` bids ``bid`` and the later seats bid as the
        autopilot would with their (sampled) hands."""
        bids = list(self.state.bids)
        bids[seat] = bid
        return self._finish_bidding(deal.hands, bids, seat, deal.trump)

    def _finish_bidding(
        self, hands: list[int], bids: list[int | None], seat: int, trump: int
    ) -> list[int | None]:
        dealer, n = self.state.dealer, self.cards
        while seat != dealer:
            seat = (seat + 1) % self.players
            allowed: Sequence[int] = range(n + 1)
            if seat == dealer:
                forbidden = n - sum(b for b in bids if b is not None)
                allowed = [b for b in allowed if b != forbidden]
            bids[seat] = choose_bid(hands[seat], trump, n, allowed)
        return bids


def _shuffled(items: list[T], rng: random.Random) -> list[T]:
    """The items in random order: sorted by a random key each, which is a
    uniform shuffle and several times faster than ``rng.shuffle``."""
    random_ = rng.random
    return sorted(items, key=lambda _: random_())


def _cut(cards: list[T], sizes: Iterable[int]) -> list[list[T]]:
    """Consecutive runs of ``cards`` of these sizes."""
    places: list[list[T]] = []
    start = 0
    for size in sizes:
        places.append(cards[start : start + size])
        start += size
    return places


@cache
def _values(trump: int, cards: int) -> tuple[tuple[float, ...], ...]:
    """The cards' shares of ``autopilot.estimate_tricks`` in a hand, but for
    kings (which count only with another card of their suit), summed for
    each value of each byte of a hand mask: five lookups add up a hand."""
    unseen = 36 - cards
    out_of_play = max(0.0, 1.0 - 3 * cards / unseen) if unseen else 0.0
    values = [0.0] * 40
    for bit in range(36):
        rank, suit = bit // 4, bit % 4
        if suit == trump:
            values[bit] = max(TRUMP_VALUE[rank], out_of_play ** (ACE - rank))
        elif rank == ACE:
            values[bit] = SIDE_ACE_NO_TRUMP if trump < 0 else SIDE_ACE
    values[X1] = values[X2] = 1.0
    tables = []
    for byte in range(5):
        table = [0.0] * 256
        for pattern in range(1, 256):
            low = pattern & -pattern  # the pattern is its lowest card and the rest
            table[pattern] = (
                table[pattern ^ low] + values[8 * byte + low.bit_length() - 1]
            )
        tables.append(tuple(table))
    return tuple(tables)


_KINGS = sum(1 << (KING * 4 + suit) for suit in range(4))
assert rank_of("AS") == ACE


def estimate_tricks(hand: int, trump: int, cards: int) -> float:
    """``autopilot.estimate_tricks`` of a hand mask (``trump`` by index)."""
    b0, b1, b2, b3, b4 = _values(trump, cards)
    estimate = (
        b0[hand & 255]
        + b1[hand >> 8 & 255]
        + b2[hand >> 16 & 255]
        + b3[hand >> 24 & 255]
        + b4[hand >> 32 & 255]
    )
    if trump >= 0:
        trumps = (hand & SUIT_MASK[trump]).bit_count()
        if trumps > 3:
            estimate += LONG_TRUMP * (trumps - 3)
        kings = hand & _KINGS & ~SUIT_MASK[trump]
        side_king = SIDE_KING
    else:
        kings = hand & _KINGS
        side_king = SIDE_KING_NO_TRUMP
    while kings:
        king = kings & -kings
        kings ^= king
        if (hand & SUIT_MASK[(king.bit_length() - 1) % 4]).bit_count() >= 2:
            estimate += side_king
    return min(estimate, float(cards))


def choose_bid(hand: int, trump: int, cards: int, allowed: Iterable[int]) -> int:
    """``autopilot.choose_bid`` of a hand mask: the allowed bid nearest the
    estimate; ties go to the lower bid."""
    estimate = estimate_tricks(hand, trump, cards)
    return min(allowed, key=lambda bid: (abs(bid - estimate), bid))
