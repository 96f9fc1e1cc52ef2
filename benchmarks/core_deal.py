"""A fully known engine ``State`` as a deal of the compiled core
(``joker.bots.core.CoreDeal``), for the peer's leaf playouts
(``openspiel_joker.CoreRollout``), without the Python ``BitDeal``.

``CoreDeal.of`` reads a deal's fields by name from any object (it was
written for ``BitDeal``); ``core_deal(state)`` hands it those fields made
from the state: hands and columns as bits (``joker.bots.bits``), the
profile's joker plays, and the trick in progress as the core keeps it (the
demanded suit, whether a joker led ``take``, the seat winning so far and
``beat``, the ordinary cards that would take the trick from it now), by the
rules of RULES.md 2.4-2.6 and 3.3 as the core applies them. What the core
needs and lacks is a ``CoreDeal.from_state(state)`` of its own; until then
this is checked against ``BitDeal.from_state`` where that still exists
(``check``, run by ``bot_strength.py --smoke``).
"""

from __future__ import annotations

from functools import cache
from types import SimpleNamespace

from joker.bots.bits import (
    ABOVE,
    GIVE,
    HIGH,
    JOKER_PLAY,
    LOW,
    MODES,
    NOMINAL,
    NOMINAL_BIT,
    SUIT_MASK,
    TAKE,
    X1,
    bit_of,
    mask_of,
    play_code,
    trump_index,
)
from joker.bots.core import CoreDeal


@cache
def joker_plays(lead_modes, answer_modes) -> tuple:
    """A profile's joker modes as numbers and the codes of each joker's
    plays on the lead and in answer, in the engine's order."""

    def plays(modes, with_suits: bool):
        codes = ([], [])
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


def _to_trick(deal, seat: int, code: int) -> None:
    """The trick's fields with one more play (the core's ``to_trick``)."""
    leading = not deal.played
    deal.played += 1
    trumps = SUIT_MASK[deal.trump] if deal.trump >= 0 else 0
    if code >= JOKER_PLAY:
        joker = X1 + (code - JOKER_PLAY >= 32)
        mode, suit = (code - JOKER_PLAY) % 32 // 4, code % 4
        if mode == NOMINAL:
            code = NOMINAL_BIT[joker]
        elif mode == HIGH:
            deal.winner, deal.beat = seat, 0
            return
        elif mode == LOW:
            return
        else:
            deal.suit, deal.taking, deal.winner = suit, mode == TAKE, seat
            if mode == GIVE:
                deal.beat = SUIT_MASK[suit] | trumps
            elif suit == deal.trump or deal.trump < 0:
                deal.beat = 0
            else:
                deal.beat = trumps
            return
    if leading:
        deal.suit, deal.taking = code % 4, False
    elif not deal.beat >> code & 1:
        return
    deal.winner = seat
    deal.beat = ABOVE[code] | (0 if code % 4 == deal.trump else trumps)


def core_deal(state, bids=None) -> CoreDeal:
    """The state's deal (every hand known) as a ``CoreDeal``; ``bids``
    stands for the state's where they are not all made yet."""
    rules = state.rules
    lead_modes, answer_modes, lead_plays, answer_plays = joker_plays(
        rules.lead_modes, rules.answer_modes
    )
    fields = SimpleNamespace(
        players=rules.players,
        japanese=rules.is_japanese,
        trump=-1 if state.trump is None else trump_index(state.trump),
        hands=[mask_of(hand) for hand in state.hands],
        columns=[[(bit_of(d), bit_of(u)) for d, u in own] for own in state.columns],
        tricks=list(state.tricks),
        bids=list(state.bids if bids is None else bids),
        leader=state.leader,
        played=0,
        suit=0,
        winner=0,
        beat=0,
        taking=False,
        done=len(state.trick_winners),
        total=state.cards_each,
        lead_modes=lead_modes,
        answer_modes=answer_modes,
        lead_plays=lead_plays,
        answer_plays=answer_plays,
    )
    for play in state.trick:
        _to_trick(fields, play.seat, play_code(play))
    return CoreDeal.of(fields)


def check(states) -> int:
    """``core_deal`` against ``BitDeal.from_state`` on ``states`` (in the
    card play): the same legal moves and autopilot play-out. The count
    checked; 0 when ``BitDeal`` is gone (nothing to hold it to)."""
    try:
        from joker.bots.bitdeal import BitDeal
    except ImportError:
        return 0
    checked = 0
    for state in states:
        ours, reference = core_deal(state), CoreDeal.of(BitDeal.from_state(state))
        assert ours.legal() == reference.legal(), "legal moves differ"
        ours.play_out()
        reference.play_out()
        assert ours.tricks == reference.tricks, "play-outs differ"
        checked += 1
    return checked
