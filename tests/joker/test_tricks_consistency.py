"""The one-card follow check agrees with the list of playable cards."""

from __future__ import annotations

import random

from joker.actions import PlayCard
from joker.cards import DECK, TRUMP_CHOICES
from joker.tricks import may_play, playable_cards


def random_lead(rng: random.Random, card: str) -> PlayCard:
    if card[0] != "X":
        return PlayCard(0, card)
    mode = rng.choice(["take", "give", "nominal"])
    suit = rng.choice("SHDC") if mode != "nominal" else None
    return PlayCard(0, card, mode, suit)


def test_may_play_agrees_with_playable_cards_on_random_positions():
    rng = random.Random(11)
    for _ in range(5000):
        deck = list(DECK)
        rng.shuffle(deck)
        available = deck[: rng.randint(1, 12)]
        trick = () if rng.random() < 0.2 else (random_lead(rng, deck[-1]),)
        trump = rng.choice(TRUMP_CHOICES)
        allowed = playable_cards(available, trick, trump)
        for card in available:
            if card[0] != "X":
                assert may_play(card, available, trick, trump) == (card in allowed)
