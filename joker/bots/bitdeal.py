"""One deal's card play on bit masks, for the practice bot's many playouts.

``DealSim`` plays a deal on lists of card strings with the engine's own
trick functions; it is the reference. ``BitDeal`` plays the same deal with
the same rules and the same autopilot policy on integers, about five times
faster, so that a bot gets five times the playouts in its thinking time
(a Monte Carlo bot's strength is its number of playouts). The tests play
both side by side and hold them to the same moves and tricks.

The layout that makes it fast:

* Cards, hands and plays are integers (``bits``): a card a bit, a hand a
  mask, so a suit's cards and the cheapest or dearest card are bit
  operations.
* The trick keeps, instead of its cards, what the rules need of it: the
  demanded suit, whether a joker led ``take``, the seat winning so far and
  ``beat``, the ordinary cards that would take the trick from it now.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Self, TypeAlias

from ..state import State
from .bits import (
    ABOVE,
    ACES,
    GIVE,
    HIGH,
    JOKER_BITS,
    JOKER_PLAY,
    LOW,
    MODES,
    NOMINAL,
    NOMINAL_BIT,
    SUIT_MASK,
    TAKE,
    X1,
    X2,
    bit_of,
    bits_mask,
    joker_code,
    mask_of,
    play_code,
    trump_index,
)

# The codes of each joker's plays (X1's, then X2's).
JokerPlays: TypeAlias = tuple[tuple[int, ...], ...]
# Lead modes, answer modes (as numbers), lead plays and answer plays.
JokerRules: TypeAlias = tuple[frozenset[int], frozenset[int], JokerPlays, JokerPlays]
# A Japanese column as bits: (face_down, face_up).
Column: TypeAlias = tuple[int, int]


@cache
def _joker_rules(
    lead_modes: tuple[str, ...], answer_modes: tuple[str, ...]
) -> JokerRules:
    """A profile's joker modes as numbers, and the codes of each joker's
    plays on the lead and in answer, in the engine's order."""

    def plays(modes: tuple[str, ...], with_suits: bool) -> JokerPlays:
        codes: tuple[list[int], list[int]] = ([], [])
        for joker in range(2):
            for mode in modes:
                base = JOKER_PLAY + 32 * joker + 4 * MODES.index(mode)
                if with_suits and mode in ("take", "give"):
                    codes[joker].extend(base + suit for suit in range(4))
                else:
                    codes[joker].append(base)
        return tuple(map(tuple, codes))

    return (
        frozenset(map(MODES.index, lead_modes)),
        frozenset(map(MODES.index, answer_modes)),
        plays(lead_modes, True),
        plays(answer_modes, False),
    )


_new_deal = object.__new__


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class BitDeal:
    """The card play of one fully known (sampled) deal; see the module."""

    __slots__ = (
        "players",
        "japanese",
        "trump",
        "trumps",
        "lead_modes",
        "answer_modes",
        "lead_plays",
        "answer_plays",
        "hands",
        "columns",
        "ups",
        "played",
        "suit",
        "taking",
        "winner",
        "beat",
        "leader",
        "tricks",
        "done",
        "total",
        "bids",
    )
    players: int
    japanese: bool
    trump: int  # a suit index, -1 for none
    trumps: int  # the trump suit's cards
    lead_modes: frozenset[int]
    answer_modes: frozenset[int]
    lead_plays: JokerPlays
    answer_plays: JokerPlays
    hands: list[int]
    columns: list[list[Column]]
    ups: list[int]  # each seat's face-up cards
    played: int  # cards in the trick
    suit: int  # the demanded suit
    taking: bool  # a joker led take
    winner: int
    beat: int
    leader: int
    tricks: list[int]
    done: int
    total: int
    bids: list[int | None]

    @classmethod
    def from_state(
        cls,
        state: State,
        trump: str | None = None,
        bids: Sequence[int | None] | None = None,
    ) -> Self:
        """Copy a state's deal; ``trump`` and ``bids`` fill in what is not
        decided yet when a playout starts before trump or bidding."""
        hands = [mask_of(hand) for hand in state.hands]
        columns = [[(bit_of(d), bit_of(u)) for d, u in own] for own in state.columns]
        deal = cls.from_parts(state, hands, columns, bids)
        if trump is not None:
            deal.name_trump(trump)
        return deal

    @classmethod
    def from_parts(
        cls,
        state: State,
        hands: list[int],
        columns: list[list[Column]],
        bids: Sequence[int | None] | None = None,
    ) -> Self:
        """The state's deal with these hands and columns (bits), the rest
        (trump, bids, tricks, the trick) read from the state."""
        deal = cls.__new__(cls)
        rules = state.rules
        deal.players = rules.players
        deal.japanese = rules.is_japanese
        deal.name_trump(state.trump)
        deal.lead_modes, deal.answer_modes, deal.lead_plays, deal.answer_plays = (
            _joker_rules(rules.lead_modes, rules.answer_modes)
        )
        deal.hands = hands
        deal.columns = columns
        deal.ups = [bits_mask(up for _, up in own) for own in columns]
        deal.leader = state.leader
        deal.tricks = list(state.tricks)
        deal.done = len(state.trick_winners)
        deal.total = state.cards_each
        deal.bids = list(state.bids if bids is None else bids)
        deal.played = 0
        deal.suit = deal.winner = deal.beat = 0
        deal.taking = False
        for play in state.trick:
            deal._to_trick(play.seat, play_code(play))
        return deal

    def name_trump(self, trump: str | int | None) -> None:
        """Set trump (a suit letter, ``none`` or a suit index, -1 for none);
        None leaves the deal without one until a playout names it."""
        if isinstance(trump, str):
            trump = trump_index(trump)
        self.trump = -1 if trump is None else trump
        self.trumps = SUIT_MASK[self.trump] if self.trump >= 0 else 0

    def copy(self) -> BitDeal:
        new = _new_deal(BitDeal)
        new.players = self.players
        new.japanese = self.japanese
        new.trump = self.trump
        new.trumps = self.trumps
        new.lead_modes = self.lead_modes
        new.answer_modes = self.answer_modes
        new.lead_plays = self.lead_plays
        new.answer_plays = self.answer_plays
        new.hands = self.hands.copy()
        new.columns = [own.copy() for own in self.columns]
        new.ups = self.ups.copy()
        new.played = self.played
        new.suit = self.suit
        new.taking = self.taking
        new.winner = self.winner
        new.beat = self.beat
        new.leader = self.leader
        new.tricks = self.tricks.copy()
        new.done = self.done
        new.total = self.total
        new.bids = self.bids
        return new

    @property
    def finished(self) -> bool:
        return self.done == self.total

    @property
    def turn(self) -> int:
        return (self.leader + self.played) % self.players

    def _available(self, seat: int) -> int:
        if self.columns and self.done:
            return self.hands[seat] | self.ups[seat]
        return self.hands[seat]

    def _ordinary_legal(self, ordinary: int) -> int:
        """The ordinary cards of ``ordinary`` that may go on the trick."""
        if not self.played:
            return ordinary
        of_suit = ordinary & SUIT_MASK[self.suit]
        if of_suit:
            # After a joker led take, the highest card of the suit.
            return 1 << (of_suit.bit_length() - 1) if self.taking else of_suit
        trumps = ordinary & self.trumps
        return trumps if trumps else ordinary

    def legal(self) -> list[int]:
        """The codes of the engine's ``legal_actions``, ordinary cards by
        bit rather than in hand order."""
        available = self._available(self.turn)
        ordinary = self._ordinary_legal(available & ~JOKER_BITS)
        codes = []
        while ordinary:
            low = ordinary & -ordinary
            codes.append(low.bit_length() - 1)
            ordinary ^= low
        if available & JOKER_BITS:
            plays = self.answer_plays if self.played else self.lead_plays
            if available >> X1 & 1:
                codes += plays[0]
            if available >> X2 & 1:
                codes += plays[1]
        return codes

    def play(self, code: int) -> None:
        """Play a legal code (not checked: it comes from ``legal`` or the
        autopilot)."""
        seat = (self.leader + self.played) % self.players
        bit = code if code < JOKER_PLAY else X1 + (code - JOKER_PLAY >= 32)
        card = 1 << bit
        hands = self.hands
        if hands[seat] & card:
            hands[seat] ^= card
        else:
            self._from_column(seat, bit)
        self._to_trick(seat, code)
        if self.played == self.players:
            self.tricks[self.winner] += 1
            self.done += 1
            self.leader = self.winner
            self.played = 0

    def _from_column(self, seat: int, bit: int) -> None:
        """A face-up card played: its face-down card goes to the hand, and
        so does the last column's pair (a player never keeps one column)."""
        own = self.columns[seat]
        index = next(i for i, column in enumerate(own) if column[1] == bit)
        freed = 1 << own.pop(index)[0]
        if len(own) == 1:
            down, up = own.pop()
            freed |= (1 << down) | (1 << up)
        self.hands[seat] |= freed
        self.ups[seat] = sum(1 << up for _, up in own)

    def _to_trick(self, seat: int, code: int) -> None:
        """The trick with this play added: demanded suit, winner and the
        ordinary cards that would beat it now (RULES.md 2.4-2.6, 3.3)."""
        leading = not self.played
        self.played += 1
        if code >= JOKER_PLAY:
            joker = X1 + (code - JOKER_PLAY >= 32)
            mode, suit = (code - JOKER_PLAY) % 32 // 4, code % 4
            if mode == NOMINAL:
                code = NOMINAL_BIT[joker]  # from here on its own six
            elif mode == HIGH:
                self.winner, self.beat = seat, 0
                return
            elif mode == LOW:
                return
            else:  # take or give, always on the lead
                self.suit, self.taking, self.winner = suit, mode == TAKE, seat
                if mode == GIVE:
                    self.beat = SUIT_MASK[suit] | self.trumps
                elif suit == self.trump or self.trump < 0:
                    self.beat = 0  # only a high joker takes it
                else:
                    self.beat = self.trumps
                return
        if leading:
            self.suit, self.taking = code % 4, False
        elif not self.beat >> code & 1:
            return
        self.winner = seat
        self.beat = ABOVE[code] | (0 if code % 4 == self.trump else self.trumps)

    # -- the autopilot policy (``autopilot.choose_play``) on masks ----------

    def autopilot_move(self) -> int:
        seat = (self.leader + self.played) % self.players
        want = self.japanese or self.bids[seat] != self.tricks[seat]
        available = self._available(seat)
        jokers = available & JOKER_BITS
        joker = X1 if jokers >> X1 & 1 else X2
        if not self.played:
            return self._lead(available & ~JOKER_BITS, jokers, joker, want)
        ordinary = self._ordinary_legal(available & ~JOKER_BITS)
        if want:
            wins = ordinary & self.beat
            if wins:
                return self._cheapest(wins)
            if jokers and HIGH in self.answer_modes:
                return joker_code(joker, HIGH, 0)
            if ordinary:
                return self._cheapest(ordinary)
        else:
            losers = ordinary & ~self.beat
            if losers:
                return self._dearest(losers)
            if jokers and LOW in self.answer_modes:
                return joker_code(joker, LOW, 0)
            if ordinary:
                return self._dearest(ordinary)
        return self.answer_plays[joker - X1][0]

    def _lead(self, ordinary: int, jokers: int, joker: int, want: bool) -> int:
        if want:
            aces = ordinary & ACES
            if aces:
                # The trump ace first: it cannot lose to an ordinary card.
                if self.trump >= 0 and aces >> (32 + self.trump) & 1:
                    return 32 + self.trump
                return _lowest(aces)
            if jokers and TAKE in self.lead_modes:
                suit = self.trump if self.trump >= 0 else _longest_suit(ordinary)
                return joker_code(joker, TAKE, suit)
        if ordinary:
            return self._cheapest(ordinary)
        if not want and GIVE in self.lead_modes:
            # Only jokers: give in a side suit, which a holder of it or of a
            # trump beats.
            return joker_code(joker, GIVE, 1 if self.trump == 0 else 0)
        plays = self.lead_plays[joker - X1]
        nominal = joker_code(joker, NOMINAL, 0)
        return nominal if nominal in plays else plays[0]

    def _cheapest(self, cards: int) -> int:
        """The lowest card, a side suit's before any trump."""
        side = cards & ~self.trumps
        return _lowest(side if side else cards)

    def _dearest(self, cards: int) -> int:
        """The highest card, a trump before any side suit's."""
        trumps = cards & self.trumps
        return (trumps if trumps else cards).bit_length() - 1

    def play_out(self) -> None:
        """Finish the deal with the autopilot policy for every seat."""
        move, play = self.autopilot_move, self.play
        while self.done < self.total:
            play(move())


def _longest_suit(ordinary: int) -> int:
    """The suit with the most cards; ties to the first in ``SUITS``."""
    counts = [(ordinary & SUIT_MASK[suit]).bit_count() for suit in range(4)]
    return counts.index(max(counts))
