"""The practice bot's playouts: today's Python path against the compiled
core (``joker.bots.core``), on the same positions, in CPU time.

    python benchmarks/playout_speed.py [--positions N] [--slices N] [--slice S]

A playout here is what ``IsmctsBot`` does for each sampled deal: deal the
unseen cards consistently with what the seat to move knows
(``DealSampler``, the bids' fit included), play the whole deal's card play
out with the autopilot policy for every seat and score it for that seat
(``results.Scorers``, premiums and deductions included). The positions are
the first card of seeded deals of classic Joker (``georgian-club``) and
Japanese Joker, where the playout is the longest. The Python path runs one
playout a call, as the bot does; the core runs a batch of them in one call
(``Playouts.compare``).

Second, whole random deals (dealing, trump, bids and every card chosen at
random among the legal ones): the rules engine (``apply``,
``legal_actions``) against the core's loop in C (``random_deals``), in
decisions a second.

The sides take turns in slices of ``--slice`` CPU seconds
(``time.process_time``), ``--slices`` rounds; each figure is the median of
its slices. Target: the core at least 10x the Python path's playouts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from joker import apply, legal_actions, make_rules  # noqa: E402
from joker.bots.bitsample import DealSampler  # noqa: E402
from joker.bots.check_core import positions  # noqa: E402
from joker.bots.core import Playouts, random_deals  # noqa: E402
from joker.bots.results import Scorers  # noqa: E402
from joker.state import DEAL, PLAY  # noqa: E402

CLOCK = time.process_time
TARGET = 10.0
GAMES = {"classic": ("georgian-club", {}), "japanese": ("japanese", {})}
# Playouts in one call of the core.
BATCH = 200


def first_cards(rules, count: int, seed: int) -> list:
    """(state, deal_actions) at the first card of ``count`` seeded deals."""
    found, rng = [], random.Random(seed)
    while len(found) < count:
        for state, deal_actions in positions(rules, rng, deals=24, skip=0):
            if state.phase == PLAY and not state.trick_winners and not state.trick:
                found.append((state, deal_actions))
    return found[:count]


def python_playouts(position, rng: random.Random) -> int:
    """One playout as ``IsmctsBot`` runs it today: 1."""
    sampler, results, seat = position
    sim = sampler.sample(rng).copy()
    sim.play_out()
    results(sim)[seat]
    return 1


def core_playouts(playouts, rng: random.Random) -> int:
    """A batch of playouts in one call of the core: how many."""
    return playouts.compare("none", [0], BATCH)[1]


def engine_deal(rules, rng: random.Random, state_box: list) -> int:
    """One random deal on the rules engine: its decisions."""
    from joker import new_game
    from joker.shuffle import deal_cards

    state = state_box[0]
    if state is None or state.is_over:
        state = new_game(rules, first_dealer=rng.randrange(rules.players))
    decisions = 0
    state = apply(state, deal_cards(state, rng))
    while state.phase not in (DEAL,) and not state.is_over:
        state = apply(state, rng.choice(legal_actions(state)))
        decisions += 1
    state_box[0] = state
    return decisions


def sides_of(rules, found: list, rng: random.Random) -> dict:
    """The four sides of one game: {name: work() -> units done}."""
    python_side = [(DealSampler(s, a), Scorers(s), s.turn) for s, a in found]
    core_side = [Playouts(DealSampler(s, a), rng.getrandbits(64)) for s, a in found]
    box: list = [None]
    return {
        "python": lambda: python_playouts(rng.choice(python_side), rng),
        "core": lambda: core_playouts(rng.choice(core_side), rng),
        "engine deals": lambda: engine_deal(rules, rng, box),
        "core deals": lambda: random_deals(rules, 50, rng.getrandbits(64))[1],
    }


def run_slices(sides: dict, slices: int, seconds: float) -> dict:
    """{name: [units a CPU second, one per slice]}, the sides interleaved,
    the order rotating every round."""
    rates = {name: [] for name in sides}
    names = list(sides)
    for round_ in range(slices):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            work = sides[name]
            units, start = 0, CLOCK()
            while (spent := CLOCK() - start) < seconds:
                units += work()
            rates[name].append(units / spent)
    return rates


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--slices", type=int, default=5)
    parser.add_argument("--slice", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    missed = False
    print(f"CPU time, median of {args.slices} slices of {args.slice} s each")
    for game, (profile, options) in GAMES.items():
        rules = make_rules(profile, options)
        found = first_cards(rules, args.positions, args.seed)
        sides = sides_of(rules, found, rng)
        rates = {k: statistics.median(v) for k, v in run_slices(
            sides, args.slices, args.slice).items()}  # fmt: skip
        ratio = rates["core"] / rates["python"]
        deals_ratio = rates["core deals"] / rates["engine deals"]
        verdict = "meets" if ratio >= TARGET else "MISSES"
        missed |= ratio < TARGET
        print(f"{game}: {args.positions} positions at the first card")
        print(f"  playouts/s  python {rates['python']:>12,.0f}   core "
              f"{rates['core']:>12,.0f}   {ratio:.1f}x")  # fmt: skip
        print(f"  random whole deals, decisions/s  engine "
              f"{rates['engine deals']:>12,.0f}   core {rates['core deals']:>12,.0f}"
              f"   {deals_ratio:.0f}x")  # fmt: skip
        print(f"verdict {game}: core / python {ratio:.1f}x in playouts a CPU "
              f"second ({verdict} the {TARGET:.0f}x target)")  # fmt: skip
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
