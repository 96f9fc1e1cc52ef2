"""The compiled playouts (``joker.bots.core``) held to the Python reference:
``BitDeal``, the autopilot's bids, ``results.Scorers``, ``DealSampler`` and
the rules engine itself, step by step on the same deals.

    python -m joker.bots.check_core [--steps N] [--seed N]

plays random games of every profile and, from their positions, compares
until N card-play steps have been checked; it prints the count and exits 1
at the first difference. ``tests/joker/test_core_matches_engine.py`` runs
the same comparisons on fewer deals.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence
from types import SimpleNamespace
from typing import cast

from .. import apply, legal_actions, make_rules, new_game
from ..actions import Action, Bid, Choice, PlayCard
from ..cards import DECK, TRUMP_CHOICES
from ..rules import Rules
from ..shuffle import deal_from_deck
from ..state import BID, DEAL, OVER, PLAY, TRUMP, State
from . import autopilot
from .bitdeal import BitDeal
from .bits import bit_of, mask_of, play_code, play_of, trump_index
from .bitsample import PLAY_MISS, DealSampler, choose_bid, estimate_tricks
from .core import CoreDeal, Playouts, solve_deal
from .core import choose_bid as core_choose_bid
from .core import choose_trump as core_choose_trump
from .core import estimate_tricks as core_estimate_tricks
from .results import Scorers

# name: (profile, options), every profile and the options that change play
# or scoring.
PROFILES = {
    "club": ("georgian-club", {}),
    "club-nines": ("georgian-club", {"schedule": "nines"}),
    "club-pairs": ("georgian-club", {"pairs": True, "hisht_penalty": "alternating"}),
    "club-dynamic": (
        "georgian-club",
        {"hisht_penalty": "dynamic", "deductions": False},
    ),
    "tvaladze": ("georgian-tvaladze", {}),
    "live-games": ("live-games", {}),
    "live-games-home": ("live-games", {"scoring": "home-missing"}),
    "live-games-home-bid": ("live-games", {"scoring": "home-bid"}),
    "japanese": ("japanese", {}),
}


class Mismatch(AssertionError):
    """The compiled core and the reference disagree."""


def _turn(state: State) -> int:
    """The seat to move: the checks look at positions inside a deal."""
    assert state.turn is not None
    return state.turn


def same(what: str, core: object, reference: object) -> None:
    if core != reference:
        raise Mismatch(f"{what}: core {core!r}, reference {reference!r}")


def positions(
    rules: Rules,
    rng: random.Random,
    deals: int,
    deck: Sequence[str] | None = None,
    skip: int | None = None,
) -> Iterator[tuple[State, list[Choice]]]:
    """``(state, deal_actions)`` before every decision of ``deals`` deals of
    a game played by random legal moves, after ``skip`` deals played
    unseen (a random number when None: every deal size of the schedule
    gets its turn); ``deck`` (a card order) deals the first deal seen."""
    state = new_game(rules, first_dealer=rng.randrange(rules.players))
    if skip is None:
        skip = rng.randrange(len(rules.schedule) or 4)
    dealt = -skip
    actions: list[Choice] = []
    while state.phase != OVER:
        if state.phase == DEAL:
            if dealt == deals:
                return
            order = list(deck) if deck is not None and dealt == 0 else None
            if order is None:
                order = list(DECK)
                rng.shuffle(order)
            state = apply(state, deal_from_deck(state, order))
            dealt += 1
            actions = []
            continue
        if dealt > 0:
            yield state, list(actions)
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state = apply(state, action)


def check_card_play(state: State, rng: random.Random) -> int:
    """From a card-play state to the deal's end by random legal plays: the
    core's legal plays, turn, autopilot move, trick winner and tricks equal
    ``BitDeal``'s and the engine's at every step. The steps checked."""
    bit, core = BitDeal.from_state(state), CoreDeal.of(BitDeal.from_state(state))
    steps = 0
    while state.phase == PLAY:
        legal = core.legal()
        same("legal plays", legal, bit.legal())
        same(
            "legal plays (engine)",
            sorted(legal),
            # Card play: the legal actions are cards.
            sorted(map(play_code, cast("list[PlayCard]", legal_actions(state)))),
        )
        same("turn", core.turn, state.turn)
        move = core.autopilot_move()
        same("autopilot move", move, bit.autopilot_move())
        same(
            "autopilot move (engine)",
            play_of(_turn(state), move),
            autopilot.autopilot_action(state),
        )
        code = rng.choice(legal)
        core.play(code)
        bit.play(code)
        state = apply(state, play_of(_turn(state), code))
        same("trick winner so far", core.winner, bit.winner)
        same("tricks", core.tricks, bit.tricks)
        same("hands", core.hands, bit.hands)
        steps += 1
    same("tricks at the end (engine)", tuple(core.tricks), state.deals[-1].tricks)
    return steps


def check_playout(state: State) -> int:
    """The core's own playout loop, replayed: every move the autopilot's in
    ``BitDeal`` and legal in the engine, and the same tricks at the end."""
    core = CoreDeal.of(BitDeal.from_state(state))
    bit = BitDeal.from_state(state)
    moves = core.play_out()
    for code in moves:
        same("playout move", code, bit.autopilot_move())
        action = play_of(_turn(state), code)
        if action not in legal_actions(state):
            raise Mismatch(f"playout move {action} is not legal in the engine")
        bit.play(code)
        state = apply(state, action)
    same("playout tricks", core.tricks, bit.tricks)
    same("playout tricks (engine)", tuple(core.tricks), state.deals[-1].tricks)
    return len(moves)


def check_bids(state: State, rng: random.Random) -> None:
    """Trump, estimates and bids on the state's hands and random ones, under
    every trump."""
    n = state.cards_each
    hands = [mask_of(hand) for hand in state.hands]
    hands.append(mask_of(rng.sample(DECK, min(n, 18))))
    for hand in hands:
        for trump in range(-1, 4):
            same(
                "estimate",
                core_estimate_tricks(hand, trump, n),
                estimate_tricks(hand, trump, n),
            )
            forbidden = rng.randrange(-1, n + 1)
            allowed = [b for b in range(n + 1) if b != forbidden]
            same(
                "bid",
                core_choose_bid(hand, trump, n, forbidden),
                choose_bid(hand, trump, n, allowed),
            )
    for cards in state.hands:
        visible = cards[: autopilot.CARDS_SEEN_BEFORE_TRUMP]
        same("trump", core_choose_trump([bit_of(c) for c in visible]),
             trump_index(autopilot.choose_trump(visible)))  # fmt: skip


def check_sampler(
    state: State, deal_actions: Sequence[Action], rng: random.Random
) -> None:
    """Sampled deals: the bids the playouts make and their results equal the
    Python sampler's and ``Scorers``'; the core's own samples deal exactly
    the hidden places, keep every known card and respect shown voids."""
    sampler = DealSampler(state, deal_actions)
    playouts = Playouts(sampler, rng.getrandbits(64))
    scorers = Scorers(state)
    seat = _turn(state)
    deal = sampler.sample(rng)
    core = CoreDeal.of(deal)
    if state.phase == TRUMP:
        trump = trump_index(rng.choice(TRUMP_CHOICES))
        deal.name_trump(trump)
        core.name_trump(trump)
        if not state.rules.is_japanese:
            deal.bids = sampler.all_bids(deal)
            core.all_bids(state.dealer)
    elif state.phase == BID:
        bid = rng.choice(cast("list[Bid]", legal_actions(state))).bid
        deal.bids = sampler.bids_after(deal, seat, bid)
        core.bids_after(list(state.bids), seat, bid, state.dealer)
    if not state.rules.is_japanese:  # no bids there
        same("playout bids", core.bids, deal.bids)
    core.play_out()
    deal.play_out()
    same("playout tricks", core.tricks, deal.tricks)
    same("results", playouts.score(core.bids, core.tricks), scorers(deal))
    # Results of outcomes the playouts may not reach.
    n = state.cards_each
    for _ in range(4):
        tricks = [rng.randrange(n + 1) for _ in range(state.players)]
        bids = [rng.randrange(n + 1) for _ in range(state.players)]
        if state.rules.is_japanese:
            bids = []
        fake = SimpleNamespace(bids=bids, tricks=tricks)
        same("results", playouts.score(bids, tricks), Scorers(state)(fake))
    reference = sampler.sample(rng)
    for _ in range(3):
        sampled = playouts.sample_deal()
        same("hand sizes", [h.bit_count() for h in sampled.hands],
             [h.bit_count() for h in reference.hands])  # fmt: skip
        same("own hand", sampled.hands[seat] & sampler.hands[seat], sampler.hands[seat])
        cards = [*sampled.hands]
        for own in sampled.columns:
            for down, up in own:
                cards += [1 << down, 1 << up]
        union = 0
        for mask in cards:
            if union & mask:
                raise Mismatch("a card is dealt twice")
            union |= mask
        same(
            "columns",
            list(map(len, sampled.columns)),
            list(map(len, reference.columns)),
        )
        if state.phase != TRUMP:  # the face-up cards are seen
            same("face-up cards", [[u for _, u in own] for own in sampled.columns],
                 [[u for _, u in own] for own in reference.columns])  # fmt: skip
        if sampler.groups is not None:
            for group in sampler.groups:
                for bit_, ok in group:
                    for kind, s, _ in sampler.slots:
                        if kind == "hand" and sampled.hands[s] >> bit_ & 1:
                            if not any(sampler.slots[i][1] == s for i in ok):
                                raise Mismatch(f"card {bit_} dealt to seat {s}, void")


# The solver's moves are replayed through the engine from positions this
# many tricks from the end, and checked best by a search on the engine
# itself from positions ENGINE_SOLVE_TRICKS from the end.
SOLVER_TRICKS = 2
ENGINE_SOLVE_TRICKS = 2


def check_solver(
    state: State, deal_actions: Sequence[Action], rng: random.Random
) -> int:
    """The open-cards solver of the playouts' last tricks (``solve_deal``)
    on the state's true cards: each of its moves legal in the engine and,
    near the end, worth as much to its seat as the best move that a search
    on the engine itself finds (every seat playing for its own result, as
    ``Scorers`` values the deal). The moves checked."""
    bit = BitDeal.from_state(state)
    if bit.total - bit.done > SOLVER_TRICKS:
        return 0
    playouts = Playouts(DealSampler(state, deal_actions), rng.getrandbits(64))
    core = CoreDeal.of(bit)
    moves = solve_deal(playouts, core.copy())
    scorers = Scorers(state)
    for code in moves:
        action = play_of(_turn(state), code)
        if action not in legal_actions(state):
            raise Mismatch(f"solver move {action} is not legal in the engine")
        if bit.total - bit.done <= ENGINE_SOLVE_TRICKS:
            seat = _turn(state)
            best = max(
                engine_solve(apply(state, other), scorers)[seat]
                for other in legal_actions(state)
            )
            value = engine_solve(apply(state, action), scorers)[seat]
            same("solver move's value", value, best)
        bit.play(code)
        state = apply(state, action)
    same("solver tricks (engine)", tuple(bit.tricks), state.deals[-1].tricks)
    return len(moves)


def engine_solve(state: State, scorers: Scorers) -> list[float]:
    """Every seat's result when each plays the move best for itself, from
    here to the deal's end on the engine (max^n). A seat's ties change the
    others' results, so they go as the core breaks them: the autopilot's
    move first, in its place the first legal code, then the codes in order."""
    if state.phase != PLAY:
        last = state.deals[-1]
        return scorers(SimpleNamespace(bids=list(last.bids), tricks=list(last.tricks)))
    seat = _turn(state)
    codes = BitDeal.from_state(state).legal()
    move = cast("PlayCard", autopilot.autopilot_action(state))  # card play
    first = codes.index(play_code(move))
    codes[0], codes[first] = codes[first], codes[0]
    results = (
        engine_solve(apply(state, play_of(seat, code)), scorers) for code in codes
    )
    return max(results, key=lambda values: values[seat])


def check_inference(start: State, state: State, deal_actions: Sequence[Action]) -> None:
    """How likely the other seats' plays so far were on the state's true
    deal, as the core weighs sampled deals: each the autopilot's move in
    the engine, replayed from the deal's ``start``, or ``PLAY_MISS``."""
    expected = 1.0
    if not state.rules.is_japanese:
        walked = start
        for action in deal_actions:
            if isinstance(action, PlayCard) and action.seat != state.turn:
                if autopilot.autopilot_action(walked) != action:
                    expected *= PLAY_MISS
            walked = apply(walked, action)
        same("position replayed", walked, state)
    playouts = Playouts(DealSampler(state, deal_actions), 1)
    core = CoreDeal.of(BitDeal.from_state(state))
    same("likelihood of the plays", playouts.likelihood(core), expected)


def check_position(
    state: State,
    deal_actions: Sequence[Action],
    rng: random.Random,
    start: State | None = None,
) -> int:
    """Every comparison that applies to this position; card-play steps.
    ``start``: the deal's position after dealing, to check the inference
    from the plays."""
    steps = 0
    if start is not None and state.phase == PLAY:
        check_inference(start, state, deal_actions)
    if state.phase in (TRUMP, BID, PLAY):
        check_sampler(state, deal_actions, rng)
    if state.phase == BID:
        check_bids(state, rng)
    if state.phase == PLAY:
        steps += check_card_play(state, rng)
        steps += check_playout(state)
        steps += check_solver(state, deal_actions, rng)
    return steps


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    steps = positions_checked = 0
    while steps < args.steps:
        for profile, options in PROFILES.values():
            rules = make_rules(profile, options)
            for state, deal_actions in positions(rules, rng, deals=3):
                if not deal_actions:
                    start = state  # the first decision of a deal
                try:
                    steps += check_position(state, deal_actions, rng, start)
                except Mismatch as error:
                    print(f"MISMATCH ({profile} {options}): {error}", file=sys.stderr)
                    return 1
                positions_checked += 1
    print(
        f"{steps} card-play steps checked from {positions_checked} positions:"
        " the core matches"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
