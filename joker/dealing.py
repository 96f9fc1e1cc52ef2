"""Starting a deal from its cards (the chance action), with every check."""

from __future__ import annotations

from itertools import chain

from .actions import Deal
from .cards import DECK, NO_TRUMP, is_card, is_joker, suit_of
from .errors import BadDeal
from .state import BID, TRUMP, State, evolve

_DECK_SET = frozenset(DECK)


def apply_deal(state: State, deal: Deal) -> State:
    """Start the next deal with the given cards; ``BadDeal`` if they are wrong."""
    rules = state.rules
    japanese = rules.is_japanese
    if japanese:
        _check_japanese_deal(deal)
    else:
        _check_four_player_deal(state, deal)
    players = rules.players
    first = (state.dealer + (0 if japanese else 1)) % players
    trump = None
    phase = TRUMP
    if not rules.trump_is_named(state.deal_index):
        turned = deal.turned
        assert turned is not None  # checked above: a card fixes trump
        trump = NO_TRUMP if is_joker(turned) else suit_of(turned)
        phase = BID
    return evolve(
        state,
        phase=phase,
        turn=first,
        # tuple() gives back a tuple as it is: hands dealt as tuples (as
        # ``deal_cards`` deals them) are not copied.
        hands=tuple(map(tuple, deal.hands)),
        columns=tuple([tuple(map(tuple, cols)) for cols in deal.columns]),
        turned=deal.turned,
        trump=trump,
        bids=() if japanese else (None,) * players,
        tricks=(0,) * players,
        trick_winners=(),
        trick=(),
        leader=first,
    )


def _check_cards(cards: list[str]) -> None:
    # The common case in one step: distinct cards, all of the deck. Only a
    # wrong deal goes through them one by one to say what is wrong.
    try:
        distinct = set(cards)
    except TypeError:  # something unhashable from a record: not a card
        distinct = set()
    if len(distinct) == len(cards) and distinct <= _DECK_SET:
        return
    seen: set[str] = set()
    for card in cards:
        if not is_card(card):
            raise BadDeal(f"unknown card code {card!r}")
        if card in seen:
            raise BadDeal(f"card {card} is dealt twice")
        seen.add(card)


def _check_four_player_deal(state: State, deal: Deal) -> None:
    n = state.cards_each
    if len(deal.hands) != 4:
        raise BadDeal(f"a deal has 4 hands, not {len(deal.hands)}")
    for seat, hand in enumerate(deal.hands):
        if len(hand) != n:
            raise BadDeal(f"seat {seat} has {len(hand)} cards, not {n}")
    if deal.columns:
        raise BadDeal("a 4-player deal has no columns")
    dealt = [*chain.from_iterable(deal.hands)]
    _check_cards(dealt)
    turned = deal.turned
    if state.rules.trump_is_named(state.deal_index):
        if turned is not None:
            raise BadDeal("trump is named in this deal: no card is turned")
        return
    if turned is None:
        raise BadDeal("the turned card that fixes trump is missing")
    _check_cards([turned])
    if n < 9:
        if turned in dealt:
            raise BadDeal(f"turned card {turned} is also in a hand")
    elif turned not in deal.hands[state.dealer]:
        raise BadDeal(f"turned card {turned} is not the dealer's")


def _check_japanese_deal(deal: Deal) -> None:
    if len(deal.hands) != 2:
        raise BadDeal(f"a Japanese deal has 2 hands, not {len(deal.hands)}")
    for seat, hand in enumerate(deal.hands):
        if len(hand) != 8:
            raise BadDeal(f"seat {seat} has {len(hand)} cards in hand, not 8")
    if deal.turned is not None:
        raise BadDeal("a Japanese deal has no turned card")
    if len(deal.columns) != 2:
        raise BadDeal("a Japanese deal has columns for 2 seats")
    for seat, columns in enumerate(deal.columns):
        if len(columns) != 5:
            raise BadDeal(f"seat {seat} has {len(columns)} columns, not 5")
        for column in columns:
            if len(column) != 2:
                raise BadDeal("a column is a face-down card and a face-up card")
    dealt = [*chain.from_iterable(deal.hands)]
    dealt += chain.from_iterable(chain.from_iterable(deal.columns))
    _check_cards(dealt)
