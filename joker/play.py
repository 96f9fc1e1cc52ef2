"""Playing cards: availability, legal plays, tricks and the end of a deal."""

from __future__ import annotations

from operator import add, itemgetter
from typing import cast

from .actions import PlayCard
from .cards import DECK, JOKER_SET, JOKERS, SUIT_NAMES, SUITS, is_card
from .errors import IllegalAction
from .scoring import deal_score, japanese_points, places, pulka_premiums
from .state import DEAL, OVER, DealResult, State, evolve, fields_of, from_fields
from .tricks import (
    demanded_suit,
    joker_choices,
    may_play,
    playable_cards,
    trick_winner,
)

# Plays of ordinary cards are immutable values: make each one once.
_PLAIN_PLAYS = [{card: PlayCard(seat, card) for card in DECK} for seat in range(4)]
# Each seat's card -> play lookup, bound once rather than before every card.
_PLAY_OF = [plays.__getitem__ for plays in _PLAIN_PLAYS]

# A Japanese column is a (face_down, face_up) pair.
_face_up = itemgetter(1)


def available_cards(state: State, seat: int) -> tuple[str, ...]:
    """The cards ``seat`` could play now: the hand, plus face-up column cards
    from the second trick on in Japanese Joker."""
    hand = state.hands[seat]
    if state.columns and state.trick_winners:
        return hand + tuple(map(_face_up, state.columns[seat]))
    return hand


def card_actions(state: State) -> list[PlayCard]:
    seat = state.turn
    trump = state.trump
    # Cards are played by the seat on turn, under the deal's trump.
    assert seat is not None and trump is not None
    # available_cards(state, seat), inline: this runs before every card.
    available = state.hands[seat]
    if state.columns and state.trick_winners:
        available += tuple(map(_face_up, state.columns[seat]))
    trick = state.trick
    play_of = _PLAY_OF[seat]
    if JOKER_SET.isdisjoint(available):
        # Most hands hold no joker. A lead may then be any available card,
        # which playable_cards would answer after a second look for jokers.
        if not trick:
            return list(map(play_of, available))
        return list(map(play_of, playable_cards(available, trick, trump)))
    actions = list(map(play_of, playable_cards(available, trick, trump)))
    rules = state.rules
    leading = not trick
    for card in JOKERS:
        if card in available:
            actions += joker_choices(
                seat, card, leading, rules.lead_modes, rules.answer_modes
            )
    return actions


def play_card(state: State, action: PlayCard) -> State:
    """The state after a play ``check_card`` allows."""
    seat = action.seat
    card = action.card
    fields = fields_of(state)
    hands = state.hands
    hand = hands[seat]
    if card in hand:
        # The common case, and every play of the 4-player game: the card
        # leaves the hand and no column changes. Cards are unique, so removing
        # it from a list copy takes it from its one place; that costs less
        # than slicing around it.
        rest = list(hand)
        rest.remove(card)
        new_hands = list(hands)
        new_hands[seat] = tuple(rest)
        fields["hands"] = tuple(new_hands)
    else:
        fields["hands"], fields["columns"] = _take_face_up(state, seat, card)
    trick = state.trick + (action,)
    rules = state.rules
    players = rules.players
    if len(trick) < players:
        fields["trick"] = trick
        fields["turn"] = (seat + 1) % players
        return from_fields(fields)
    trump = state.trump
    assert trump is not None  # cards are played under the deal's trump
    winner = trick_winner(trick, trump)
    tricks = list(state.tricks)
    tricks[winner] += 1
    trick_winners = state.trick_winners + (winner,)
    fields["trick"] = ()
    fields["tricks"] = tuple(tricks)
    fields["trick_winners"] = trick_winners
    fields["leader"] = winner
    fields["turn"] = winner
    after = from_fields(fields)
    if len(trick_winners) == rules.cards_in_deal(state.deal_index):
        return finish_deal(after)
    return after


def check_card(state: State, action: PlayCard) -> None:
    seat, card = action.seat, action.card
    trump = state.trump
    assert trump is not None  # cards are played under the deal's trump
    available = available_cards(state, seat)
    if card not in available:
        raise IllegalAction(_why_not_available(state, seat, card))
    if card[0] == "X":  # a joker
        _check_joker_mode(state, action)
        return
    if action.mode is not None or action.suit is not None:
        raise IllegalAction(f"{card} is not a joker: it has no mode or suit")
    if not may_play(card, available, state.trick, trump):
        allowed = playable_cards(available, state.trick, trump)
        raise IllegalAction(_why_not_allowed(state, seat, allowed))


def _why_not_available(state: State, seat: int, card: str) -> str:
    if not is_card(card):
        return f"{card!r} is not a card"
    if state.columns:
        # A face-down card gets the same answer as any card not held: the
        # message must not tell its owner where the hidden cards are.
        columns = state.columns[seat]
        if any(up == card for _, up in columns):
            return (
                f"seat {seat}'s first card must come from the hand, "
                f"not the face-up {card}"
            )
    return f"seat {seat} does not hold {card}"


def _why_not_allowed(state: State, seat: int, allowed: list[str]) -> str:
    lead = state.trick[0]
    suit = allowed[0][1]
    if lead.mode == "take" and len(allowed) == 1:
        return f"seat {seat} must play its highest {suit} (joker led take {suit})"
    if suit == state.trump and all(card[1] == suit for card in allowed):
        demanded = demanded_suit(lead)
        if demanded != suit:
            return f"seat {seat} has no {SUIT_NAMES.get(demanded)}: it must trump"
    return f"seat {seat} must follow {suit}"


def _check_joker_mode(state: State, action: PlayCard) -> None:
    rules = state.rules
    leading = not state.trick
    modes = rules.lead_modes if leading else rules.answer_modes
    if action.mode not in modes:
        where = "leading" if leading else "answering"
        raise IllegalAction(f"a joker cannot be played {action.mode!r} when {where}")
    needs_suit = action.mode in ("take", "give")
    if needs_suit and action.suit not in SUITS:
        raise IllegalAction(f"a joker played {action.mode} names a suit: S, H, D or C")
    if not needs_suit and action.suit is not None:
        raise IllegalAction(f"a joker played {action.mode} names no suit")


def _take_face_up(
    state: State, seat: int, card: str
) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[tuple[str, str], ...], ...]]:
    """Hands and columns after a face-up card is played (Japanese Joker): the
    face-down card below it goes to the hand."""
    own = state.columns[seat]
    at = list(map(_face_up, own)).index(card)
    rest = own[:at] + own[at + 1 :]
    freed: tuple[str, ...] = (own[at][0],)
    if len(rest) == 1:
        # A player never keeps a single column: the table clears into the hand.
        freed += rest[0]
        rest = ()
    hands = list(state.hands)
    hands[seat] += freed
    columns = list(state.columns)
    columns[seat] = rest
    return tuple(hands), tuple(columns)


def finish_deal(state: State) -> State:
    """Score the deal just completed and move to the next deal or game over."""
    rules = state.rules
    n = state.cards_each
    tricks = state.tricks
    trump = state.trump
    assert trump is not None  # a deal ends once its cards are played
    bids: tuple[int, ...]
    if rules.is_japanese:
        scores = tuple(japanese_points(tricks))
        bids = ()
    else:
        pulka = rules.pulka_of(state.deal_index)
        # Every seat has bid by the end of the deal: no bid is None.
        bids = cast("tuple[int, ...]", state.bids)
        scores = tuple(
            [
                deal_score(rules, bid, took, n, pulka)
                for bid, took in zip(bids, tricks, strict=True)
            ]
        )
    result = DealResult(
        state.dealer, n, trump, bids, tricks, state.trick_winners, scores
    )
    # Both have a number per seat: map stops at the end of both.
    totals = tuple(map(add, state.totals, scores))
    deal_index = state.deal_index + 1
    state = evolve(
        state,
        phase=DEAL,
        turn=None,
        deal_index=deal_index,
        deals=state.deals + (result,),
        totals=totals,
        hands=(),
        columns=(),
        trick_winners=(),
        bids=(),
        trump=None,
        turned=None,
    )
    if rules.is_japanese:
        if max(totals) >= rules.target:
            return end_game(state)
        return state
    if deal_index == sum(rules.pulka_sizes[: pulka + 1]):
        state = _close_pulka(state, pulka)
    if deal_index == len(rules.schedule):
        return end_game(state)
    return state


def _close_pulka(state: State, pulka: int) -> State:
    deals = [state.deals[i] for i in state.rules.pulka_bounds(pulka)]
    result = pulka_premiums(state.rules, pulka, deals)
    totals = tuple(
        t + b - d
        for t, b, d in zip(state.totals, result.bonus, result.deduction, strict=True)
    )
    return evolve(state, pulkas=state.pulkas + (result,), totals=totals)


def end_game(state: State, loser: int | None = None) -> State:
    """Game over: places by totals, leavers last (a Japanese resigner loses)."""
    if state.rules.is_japanese and loser is not None:
        ranking = [2 if seat == loser else 1 for seat in range(2)]
    else:
        teams = [0, 1, 0, 1] if state.rules.pairs else None
        ranking = places(state.totals, state.left, teams)
    return evolve(
        state, phase=OVER, turn=None, places=tuple(ranking), trick=(), hands=()
    )
