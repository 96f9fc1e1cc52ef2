"""Dealing real games: shuffles from a cryptographically secure generator.

The result is a ``Deal`` value, the same input a record carries, so a game
dealt here replays exactly from its record. Tests and bots pass a seeded
``random.Random`` instead.
"""

from __future__ import annotations

import random
import secrets

from .actions import Deal
from .cards import DECK
from .rules import Rules
from .state import State

_system_random = secrets.SystemRandom()


def draw_first_dealer(rules: Rules, rng: random.Random | None = None) -> int:
    return (rng or _system_random).randrange(rules.players)


def deal_cards(state: State, rng: random.Random | None = None) -> Deal:
    """Shuffle and deal the cards of the state's next deal."""
    deck = list(DECK)
    (rng or _system_random).shuffle(deck)
    return deal_from_deck(state, deck)


def deal_from_deck(state: State, deck: list[str]) -> Deal:
    """The state's next deal from a deck in this order, top card first (only
    as many cards as the deal uses need be given)."""
    rules = state.rules
    if rules.is_japanese:
        # Three cards each, then five more into each hand, then the columns.
        hands: tuple[tuple[str, ...], ...] = (
            tuple(deck[0:3] + deck[6:11]),
            tuple(deck[3:6] + deck[11:16]),
        )
        rest = deck[16:]
        columns = (
            tuple([(rest[i], rest[i + 1]) for i in range(0, 10, 2)]),
            tuple([(rest[i], rest[i + 1]) for i in range(10, 20, 2)]),
        )
        return Deal(hands, None, columns)
    n = state.cards_each
    hands = tuple([tuple(deck[seat * n : (seat + 1) * n]) for seat in range(4)])
    if rules.trump_is_named(state.deal_index):
        return Deal(hands)
    if n == 9:
        # Tvaladze: the dealer's last card is turned up and stays in the hand.
        return Deal(hands, hands[state.dealer][-1])
    return Deal(hands, deck[4 * n])
