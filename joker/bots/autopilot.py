"""The autopilot: one deterministic, always legal move for the seat to move.

It makes the automatic move of a timed-out player and plays on for a leaver
(RULES.md 3.5 and 4). The same state always gives the same move: no
randomness, and no choice depends on dict or set ordering. It only looks at
what the seat may see: its own hand (only the first three cards while
naming trump), its own face-up columns, the trick on the table, trump, bids
and tricks taken. It never reads another hand or a face-down card.

The choices are made by small functions on plain cards and plays
(``choose_trump``, ``choose_bid``, ``choose_play``) so that the Monte Carlo
bot's fast rollouts follow exactly the same policy.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import cast

from ..actions import Bid, Choice, NameTrump, PlayCard
from ..cards import NO_TRUMP, SUITS, is_joker, rank_of
from ..game import legal_actions
from ..state import BID, PLAY, TRUMP, State
from ..tricks import demanded_suit, effective

# The trump namer sees only the first three cards of the hand (RULES.md 2.2,
# 3.1); the view module shows the same three.
CARDS_SEEN_BEFORE_TRUMP = 3

ACE = rank_of("AS")
KING = rank_of("KS")
# Rough chance that a trump of each rank (6 .. A) takes a trick in a full
# 9-card deal. Shorter deals leave many cards undealt, so lower trumps are
# worth more there (see ``estimate_tricks``).
TRUMP_VALUE = (0.2, 0.2, 0.2, 0.25, 0.3, 0.4, 0.55, 0.8, 1.0)
SIDE_ACE = 0.7
SIDE_ACE_NO_TRUMP = 0.85
SIDE_KING = 0.3  # with at least one more card of the suit
SIDE_KING_NO_TRUMP = 0.45
LONG_TRUMP = 0.4  # for every trump beyond the third


def autopilot_action(state: State) -> Choice:
    """The automatic move of ``state.turn``: legal, deterministic, sensible."""
    actions = legal_actions(state)
    if not actions:
        raise ValueError("no seat is to move in this state")
    seat = state.turn
    assert seat is not None  # a seat has legal actions on its turn only
    # legal_actions lists the phase's own kind of action: trumps, bids or cards.
    if state.phase == TRUMP:
        visible = state.hands[seat][:CARDS_SEEN_BEFORE_TRUMP]
        named = choose_trump(visible)
        return next(a for a in cast("list[NameTrump]", actions) if a.trump == named)
    trump = state.trump
    assert trump is not None  # named or turned before bidding and play
    if state.phase == BID:
        bids = [action.bid for action in cast("list[Bid]", actions)]
        bid = choose_bid(state.hands[seat], trump, state.cards_each, bids)
        return Bid(seat, bid)
    if state.phase == PLAY:
        want = wants_tricks(state.rules.is_japanese, state.bids, state.tricks, seat)
        return choose_play(cast("list[PlayCard]", actions), state.trick, trump, want)
    raise ValueError(f"no move in phase {state.phase!r}")  # pragma: no cover


def wants_tricks(
    japanese: bool, bids: Sequence[int | None], tricks: Sequence[int], seat: int
) -> bool:
    """True when the seat plays to take tricks, False when it plays to lose.

    In Japanese Joker every trick counts. In the 4-player game a seat that
    still needs tricks plays for them; one that has its bid plays to lose;
    one that is already over its bid takes what it can (10 points a trick).
    """
    if japanese:
        return True
    return bids[seat] != tricks[seat]


def choose_trump(visible: Sequence[str]) -> str:
    """The suit most held among the visible cards; ties by the higher cards,
    then by the fixed suit order. ``none`` only without an ordinary card."""
    best = NO_TRUMP
    best_key: tuple[int, int, int] | None = None
    for index, suit in enumerate(SUITS):
        of_suit = [card for card in visible if not is_joker(card) and card[1] == suit]
        if not of_suit:
            continue
        key = (len(of_suit), sum(rank_of(card) + 1 for card in of_suit), -index)
        if best_key is None or key > best_key:
            best, best_key = suit, key
    return best


def estimate_tricks(hand: Collection[str], trump: str, cards: int) -> float:
    """A quick count of likely winners: jokers, trump honours, side aces."""
    ordinary = [card for card in hand if not is_joker(card)]
    length = {suit: sum(card[1] == suit for card in ordinary) for suit in SUITS}
    no_trump = trump not in SUITS
    # Chance that one given unseen card is not in an opponent's hand.
    unseen = 36 - cards
    out_of_play = max(0.0, 1.0 - 3 * cards / unseen) if unseen else 0.0
    estimate = 0.0
    for card in hand:
        if is_joker(card):
            estimate += 1.0
            continue
        rank, suit = rank_of(card), card[1]
        if suit == trump:
            higher = ACE - rank
            estimate += max(TRUMP_VALUE[rank], out_of_play**higher)
        elif rank == ACE:
            estimate += SIDE_ACE_NO_TRUMP if no_trump else SIDE_ACE
        elif rank == KING and length[suit] >= 2:
            estimate += SIDE_KING_NO_TRUMP if no_trump else SIDE_KING
    if not no_trump:
        estimate += LONG_TRUMP * max(0, length[trump] - 3)
    return min(estimate, float(cards))


def choose_bid(
    hand: Collection[str], trump: str, cards: int, allowed: Iterable[int]
) -> int:
    """The allowed bid nearest the estimate; ties go to the lower bid."""
    estimate = estimate_tricks(hand, trump, cards)
    return min(allowed, key=lambda bid: (abs(bid - estimate), bid))


def _cost(play: PlayCard, trump: str) -> tuple[bool, int, int]:
    """How much an ordinary card is worth keeping: trumps above the rest."""
    card = play.card
    return (card[1] == trump, rank_of(card), SUITS.index(card[1]))


def _joker_key(play: PlayCard) -> tuple[str, int]:
    return (play.card, SUITS.index(play.suit) if play.suit else -1)


def choose_play(
    options: Sequence[PlayCard], trick: Iterable[PlayCard], trump: str, want: bool
) -> PlayCard:
    """Pick one of the legal ``options`` (all of the same seat)."""
    if len(options) == 1:
        return options[0]
    trick = tuple(trick)
    if not trick:
        return _lead(options, trump, want)
    return _follow(options, trick, trump, want)


def _of_mode(options: Iterable[PlayCard], mode: str) -> list[PlayCard]:
    return sorted((o for o in options if o.mode == mode), key=_joker_key)


def _lead(options: Sequence[PlayCard], trump: str, want: bool) -> PlayCard:
    ordinary = [o for o in options if o.mode is None]
    if want:
        aces = [o for o in ordinary if rank_of(o.card) == ACE]
        if aces:
            # The trump ace first: it cannot lose to an ordinary card.
            return min(aces, key=lambda o: (o.card[1] != trump, _cost(o, trump)))
        takes = _of_mode(options, "take")
        if takes:
            suit = trump if trump in SUITS else _longest_suit(ordinary)
            return next((o for o in takes if o.suit == suit), takes[0])
        if ordinary:
            return min(ordinary, key=lambda o: _cost(o, trump))
    else:
        if ordinary:
            return min(ordinary, key=lambda o: _cost(o, trump))
        # Only jokers: give in a side suit, which anyone holding it or a trump
        # beats.
        gives = _of_mode(options, "give")
        side = [o for o in gives if o.suit != trump]
        if side or gives:
            return (side or gives)[0]
    return min(options, key=_joker_key)


def _longest_suit(ordinary: Sequence[PlayCard]) -> str:
    counts = [sum(o.card[1] == suit for o in ordinary) for suit in SUITS]
    return SUITS[counts.index(max(counts))]


def winning_cards(
    cards: Iterable[str], trick: Sequence[PlayCard], trump: str
) -> set[str]:
    """Which of these ordinary cards would take the trick so far if played
    now: the same answer as ``trick_winner(trick + (play,), trump)`` for
    each, worked out once for the whole trick."""
    if any(play.mode == "high" for play in trick):
        return set()
    lead = trick[0]
    best_trump: int | None = None
    best_suit: int | None = None
    suit = demanded_suit(lead)
    for play in trick:
        value = effective(play)
        if value is None:
            continue
        if value[0] == trump and (best_trump is None or value[1] > best_trump):
            best_trump = value[1]
        if value[0] == suit and (best_suit is None or value[1] > best_suit):
            best_suit = value[1]
    if lead.mode == "take" and (lead.suit == trump or trump not in SUITS):
        return set()  # only a high joker beats this lead
    winners: set[str] = set()
    for card in cards:
        rank = rank_of(card)
        if card[1] == trump:
            if best_trump is None or rank > best_trump:
                winners.add(card)
        elif lead.mode != "take" and best_trump is None and card[1] == suit:
            if best_suit is None or rank > best_suit:
                winners.add(card)
    return winners


def _follow(
    options: Sequence[PlayCard], trick: Sequence[PlayCard], trump: str, want: bool
) -> PlayCard:
    ordinary = [o for o in options if o.mode is None]
    winners = winning_cards([o.card for o in ordinary], trick, trump)
    wins = {o.card: o.card in winners for o in ordinary}
    if want:
        taking = [o for o in ordinary if wins[o.card]]
        if taking:
            return min(taking, key=lambda o: _cost(o, trump))
        high = _of_mode(options, "high")
        if high:
            return high[0]
        if ordinary:
            return min(ordinary, key=lambda o: _cost(o, trump))
    else:
        # A card that loses now stays beaten whatever comes after it, so the
        # highest such card is the best one to get rid of.
        losers = [o for o in ordinary if not wins[o.card]]
        if losers:
            return max(losers, key=lambda o: _cost(o, trump))
        low = _of_mode(options, "low")
        if low:
            return low[0]
        if ordinary:
            return max(ordinary, key=lambda o: _cost(o, trump))
    return min(options, key=_joker_key)
