"""Cards and plays as integers, for the practice bot's playouts
(``BitDeal``, ``DealSampler``).

* A card is a bit: ``rank * 4 + suit`` for ordinary cards (six = rank 0,
  ace = 8; suits in ``SUITS`` order), 36 for ``X1`` and 37 for ``X2``. A
  hand is an ``int`` with a bit per card. Rank-major order means that,
  within a suit, a higher bit is a higher card, and across suits the
  autopilot's cost order (rank, then suit) is the bit order as well: its
  cheapest card is a lowest bit, its dearest a highest bit.
* A play is an ``int`` too: an ordinary card is its bit number; a joker
  is ``JOKER_PLAY + 32 * (joker) + 4 * mode + suit``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..actions import PlayCard
from ..cards import JOKER_NOMINAL, NO_TRUMP, RANKS, SUITS

X1, X2 = 36, 37
JOKER_BITS = (1 << X1) | (1 << X2)
JOKER_NAMES = {X1: "X1", X2: "X2"}
MODES = ("take", "give", "high", "low", "nominal")
TAKE, GIVE, HIGH, LOW, NOMINAL = range(len(MODES))
JOKER_PLAY = 64  # joker plays are numbered from here

SUIT_MASK = tuple(sum(1 << (rank * 4 + suit) for rank in range(9)) for suit in range(4))
ACES = sum(1 << (8 * 4 + suit) for suit in range(4))
# The cards of the same suit above each card.
ABOVE = tuple(SUIT_MASK[bit % 4] & ~((2 << bit) - 1) for bit in range(36))
# A joker played as its six is that ordinary card (RULES.md 2.5).
NOMINAL_BIT = {X1: 0, X2: 3}


def bit_of(card: str) -> int:
    """The bit number of a card code."""
    if card[0] == "X":
        return X1 if card == "X1" else X2
    return RANKS.index(card[0]) * 4 + SUITS.index(card[1])


def trump_index(trump: str) -> int:
    """A trump as a suit index, -1 for none."""
    return -1 if trump == NO_TRUMP else SUITS.index(trump)


def card_of(bit: int) -> str:
    if bit >= X1:
        return JOKER_NAMES[bit]
    return RANKS[bit // 4] + SUITS[bit % 4]


def mask_of(cards: Iterable[str]) -> int:
    return bits_mask(map(bit_of, cards))


def bits_mask(bits: Iterable[int]) -> int:
    mask = 0
    for bit in bits:
        mask |= 1 << bit
    return mask


def play_code(play: PlayCard) -> int:
    """The integer of an engine play."""
    if play.mode is None:
        return bit_of(play.card)
    suit = SUITS.index(play.suit) if play.suit is not None else 0
    return JOKER_PLAY + 32 * (play.card == "X2") + 4 * MODES.index(play.mode) + suit


def play_of(seat: int, code: int) -> PlayCard:
    """The engine play of an integer."""
    if code < JOKER_PLAY:
        return PlayCard(seat, card_of(code))
    code -= JOKER_PLAY
    card = "X2" if code >= 32 else "X1"
    mode = MODES[code % 32 // 4]
    suit = SUITS[code % 4] if mode in ("take", "give") else None
    return PlayCard(seat, card, mode, suit)


def joker_code(joker: int, mode: int, suit: int) -> int:
    return JOKER_PLAY + 32 * (joker - X1) + 4 * mode + suit


# The six a nominal joker stands for, as the engine names it.
assert all(bit_of(six) == NOMINAL_BIT[bit_of(j)] for j, six in JOKER_NOMINAL.items())
