"""Card codes, the 36-card Joker deck and card ordering.

A card is its code string everywhere: rank ``6 7 8 9 T J Q K A`` plus suit
``S H D C`` (``"TH"`` is the ten of hearts), and the two jokers ``X1`` and
``X2``. Strings keep records, views and tests in the game's own notation.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = ("S", "H", "D", "C")
RANKS = ("6", "7", "8", "9", "T", "J", "Q", "K", "A")
JOKERS = ("X1", "X2")
NO_TRUMP = "none"
TRUMP_CHOICES = (*SUITS, NO_TRUMP)

# X1 replaces the six of spades and X2 the six of clubs; "nominal" play in
# live-games turns a joker back into that six.
JOKER_NOMINAL = {"X1": "6S", "X2": "6C"}

DECK: tuple[str, ...] = (
    tuple(
        rank + suit
        for suit in SUITS
        for rank in RANKS
        if rank + suit not in JOKER_NOMINAL.values()
    )
    + JOKERS
)

_DECK_SET = frozenset(DECK)

# Sets for the hottest tests, which look at every card a player holds: a set
# lookup costs less than comparing the card's letters (or every card of a
# hand with a joker code). Jokers belong to no suit here.
JOKER_SET = frozenset(JOKERS)
CARDS_OF_SUIT = {
    suit: frozenset(card for card in DECK if card[1] == suit) for suit in SUITS
}
RANK_VALUE = {rank: value for value, rank in enumerate(RANKS)}
# rank_of(card) for every ordinary card, in one lookup: tricks compare ranks.
CARD_RANK = {card: RANK_VALUE[card[0]] for card in DECK if card[0] != "X"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in _DECK_SET


def is_joker(card: str) -> bool:
    return card[0] == "X"


def suit_of(card: str) -> str:
    """The suit letter of an ordinary card."""
    return card[1]


def rank_of(card: str) -> int:
    """0 for a six up to 8 for an ace."""
    return RANK_VALUE[card[0]]


def sort_key(card: str) -> tuple[int, int]:
    """Order for showing a hand: by suit, high cards first, jokers last."""
    if is_joker(card):
        return (len(SUITS), int(card[1]))
    return (SUITS.index(card[1]), -RANK_VALUE[card[0]])


# Every card's sort key, looked up in C by ``sorted`` instead of a Python call
# per card: views sort each hand.
_SORT_KEYS = {card: sort_key(card) for card in DECK}


def sorted_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=_SORT_KEYS.__getitem__)


def parse_cards(text: str) -> list[str]:
    """``"AS KH 7D X1"`` -> ``["AS", "KH", "7D", "X1"]``, each code checked."""
    cards = text.split()
    for card in cards:
        if not is_card(card):
            raise ValueError(f"unknown card code {card!r}")
    return cards
