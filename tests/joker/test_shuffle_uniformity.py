"""The server's shuffle puts every card in every place equally often: a
chi-square test of card positions over 100,000 deals from the system's
secure generator, as live games are dealt."""

from __future__ import annotations

import math

import pytest

from joker import make_rules
from joker.cards import DECK
from joker.shuffle import deal_cards
from joker.state import new_game

DEALS = 100_000
# The chi-square value above which uniform dealing is rejected at the level
# of one in a million (Wilson-Hilferty's approximation, exact to well under
# 1% at these degrees of freedom): a sound shuffle practically never fails,
# and a biased one (below) fails by far.
Z_AT_ONE_IN_A_MILLION = 4.753


def chi_square_limit(freedom: int) -> float:
    k = 2 / (9 * freedom)
    return freedom * (1 - k + Z_AT_ONE_IN_A_MILLION * math.sqrt(k)) ** 3


def places(deal) -> list:
    """The 36 cards of a Japanese deal in a fixed order of places: both
    hands, then both players' columns, bottom card before top."""
    cards = [card for hand in deal.hands for card in hand]
    cards += [card for side in deal.columns for column in side for card in column]
    return cards


@pytest.mark.slow
def test_every_card_lands_in_every_place_equally_often():
    state = new_game(make_rules("japanese"), 0)
    index = {card: i for i, card in enumerate(DECK)}
    size = len(DECK)
    counts = [[0] * size for _ in range(size)]
    for _ in range(DEALS):
        for place, card in enumerate(places(deal_cards(state))):
            counts[index[card]][place] += 1

    expected = DEALS / size
    statistic = sum((n - expected) ** 2 / expected for row in counts for n in row)
    freedom = (size - 1) * (size - 1)
    assert statistic < chi_square_limit(freedom), (statistic, freedom)
    # And no single cell far out: 6 standard deviations is never luck here.
    spread = math.sqrt(expected * (1 - 1 / size))
    worst = max(abs(n - expected) for row in counts for n in row)
    assert worst < 6 * spread, worst


def test_the_limit_rejects_a_biased_shuffle():
    """The same test, given a shuffle that leaves the first card in place one
    time in ten, fails: it can tell."""
    size = len(DECK)
    expected = DEALS / size
    counts = [[expected] * size for _ in range(size)]
    counts[0][0] += DEALS / 10
    for place in range(1, size):
        counts[0][place] -= DEALS / 10 / (size - 1)
    statistic = sum((n - expected) ** 2 / expected for row in counts for n in row)
    assert statistic > chi_square_limit((size - 1) ** 2)
