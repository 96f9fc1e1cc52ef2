"""What may be played to a trick, and who wins it (RULES.md 2.4-2.6, 3.3).

The functions take plain cards and plays so that both the 4-player game and
Japanese Joker share them; what differs (joker modes, which cards are
available) comes in as arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .actions import PlayCard as Play
from .cards import (
    CARD_RANK,
    CARDS_OF_SUIT,
    JOKER_NOMINAL,
    JOKER_SET,
    NO_TRUMP,
    SUITS,
    is_joker,
    rank_of,
    suit_of,
)


def effective(play: Play) -> tuple[str, int] | None:
    """(suit, rank) a play counts as in ordinary ranking.

    A joker led ``give(L)`` is a card of L below its six (rank -1); a
    ``nominal`` joker is its six. ``high``, ``low`` and ``take`` jokers are
    handled by the trick rules themselves and have no ordinary value.
    """
    card = play.card
    if not is_joker(card):
        return card[1], rank_of(card)
    if play.mode == "give":
        assert play.suit is not None  # a joker led give names its suit
        return play.suit, -1
    if play.mode == "nominal":
        return suit_of(JOKER_NOMINAL[card]), 0
    return None


def demanded_suit(lead: Play) -> str:
    """The suit a lead asks the others to follow."""
    mode = lead.mode
    if mode is None:  # an ordinary card: only jokers are played with a mode
        return lead.card[1]
    if mode == "nominal":
        return suit_of(JOKER_NOMINAL[lead.card])
    assert lead.suit is not None  # a joker led take or give names its suit
    return lead.suit


@cache
def joker_choices(
    seat: int,
    card: str,
    leading: bool,
    lead_modes: tuple[str, ...],
    answer_modes: tuple[str, ...],
) -> tuple[Play, ...]:
    """Every way ``seat`` may play a joker on the lead or in answer.

    Cached: the answer depends on nothing else, and plays are immutable.
    """
    if not leading:
        return tuple(Play(seat, card, mode) for mode in answer_modes)
    choices: list[Play] = []
    for mode in lead_modes:
        if mode == "nominal":
            choices.append(Play(seat, card, mode))
        else:
            choices.extend(Play(seat, card, mode, suit) for suit in SUITS)
    return tuple(choices)


def playable_cards(
    available: Sequence[str], trick: Sequence[Play], trump: str
) -> list[str]:
    """The ordinary (non-joker) cards a player may put on this trick.

    Jokers are always allowed and are not included here. A joker is never a
    card of a suit for following, so a player whose only spade is a joker is
    void in spades.
    """
    # CARDS_OF_SUIT holds no joker, so the suit filters below leave jokers out
    # by themselves.
    if trick:
        lead = trick[0]
        # demanded_suit(lead), its common case inline: an ordinary card led.
        suit = lead.card[1] if lead.mode is None else demanded_suit(lead)
        suit_cards = CARDS_OF_SUIT[suit]
        of_suit = [card for card in available if card in suit_cards]
        if of_suit:
            if lead.mode == "take":
                return [max(of_suit, key=rank_of)]
            return of_suit
        if trump != NO_TRUMP:
            trump_cards = CARDS_OF_SUIT[trump]
            trumps = [card for card in available if card in trump_cards]
            if trumps:
                return trumps
    # Leading, or void in the suit asked and in trumps: any ordinary card.
    # Most hands hold no joker: one set test costs less than a filter.
    if JOKER_SET.isdisjoint(available):
        return list(available)
    return [card for card in available if card not in JOKER_SET]


def may_play(
    card: str, available: Sequence[str], trick: Sequence[Play], trump: str
) -> bool:
    """Whether the ordinary ``card`` may go on this trick: the same rule as
    ``playable_cards``, answered for one card without building the list."""
    if not trick:
        return True
    lead = trick[0]
    # demanded_suit(lead), its common case inline: an ordinary card led.
    suit = lead.card[1] if lead.mode is None else demanded_suit(lead)
    # A joker's code ("X1") never matches a suit letter in position 1.
    if card[1] == suit:
        if lead.mode != "take":
            return True
        rank = rank_of(card)
        return not any(c[1] == suit and rank_of(c) > rank for c in available)
    if any(c[1] == suit for c in available):
        return False
    if trump == NO_TRUMP or card[1] == trump:
        return True
    return not any(c[1] == trump for c in available)


def trick_winner(trick: tuple[Play, ...], trump: str) -> int:
    """The seat that takes a complete trick (RULES.md 2.6)."""
    # Most tricks hold no joker: then the best card so far is beaten by a
    # higher card of its suit or by a trump over a card that is not one, which
    # is the rule below (highest trump, else highest of the led suit) in one
    # pass. A play has a mode only when it is a joker.
    lead = trick[0]
    best, winner = lead.card, lead.seat
    for play in trick:
        if play.mode is not None:
            return _joker_trick_winner(trick, trump)
        card = play.card
        if card[1] == best[1]:
            if CARD_RANK[card] > CARD_RANK[best]:
                best, winner = card, play.seat
        elif card[1] == trump:
            best, winner = card, play.seat
    return winner


def _joker_trick_winner(trick: tuple[Play, ...], trump: str) -> int:
    for play in reversed(trick):
        if play.mode == "high":
            return play.seat
    lead = trick[0]
    best_trump = _highest_of(trick, trump) if trump != NO_TRUMP else None
    if lead.mode == "take":
        if lead.suit != trump and best_trump is not None:
            return best_trump.seat
        return lead.seat
    if best_trump is not None:
        return best_trump.seat
    highest = _highest_of(trick, demanded_suit(lead))
    assert highest is not None  # the lead itself is of the suit it demands
    return highest.seat


def _highest_of(trick: tuple[Play, ...], suit: str) -> Play | None:
    best: Play | None = None
    best_rank = -2
    for play in trick:
        card = play.card
        if play.mode is None:  # an ordinary card counts as itself
            if card[1] != suit:
                continue
            rank = CARD_RANK[card]
        else:
            value = effective(play)
            if value is None or value[0] != suit:
                continue
            rank = value[1]
        if rank > best_rank:
            best, best_rank = play, rank
    return best
