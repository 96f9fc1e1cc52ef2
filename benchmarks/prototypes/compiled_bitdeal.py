"""PROTOTYPE, not used by the product: what compiling the card play's bit-mask
move generator buys, measured.

    pip install cython        # not a dependency of the project
    python benchmarks/prototypes/compiled_bitdeal.py [--slices N] [--slice S]

Two builds by Cython and the C compiler, in a temporary directory:

* ``joker/bots/bitdeal.py`` (the card play on bit masks that the
  practice bot plays out on) compiled exactly as it is, without a single
  type declaration, and loaded in place of the Python module;
* ``typed_card_play.pyx`` beside this file: the same card play (``legal``,
  ``play``, the trick's winner, jokers included; the classic game only, no
  face-up columns) typed for C, with the random play loop in C, as
  OpenSpiel's ``evaluate_bots`` loops in C++. Before timing, it is checked
  against the Python module: the same legal codes at every step of random
  deals.

The same random card play from the same classic positions (dealt and bid,
at the first card) then runs on each, interleaved in slices of CPU time:
the rules engine (``legal_actions``, ``apply``), ``BitDeal`` in Python,
``BitDeal`` compiled untyped, the typed core (a C copy of a pooled deal
and the loop in C, one Python call a deal), and OpenSpiel's
``evaluate_bots`` on the same deal sizes (its decisions include the four
bids a deal; ours are cards only).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE = HERE.parent.parent
SOURCE = BASE / "games" / "engine" / "bots" / "bitdeal.py"
CLOCK = time.process_time


def build(directory: Path) -> tuple[Path, Path]:
    """Compile bitdeal.py and typed_card_play.pyx with Cython and a C
    compiler; the modules' paths."""
    shutil.copy(SOURCE, directory / "bitdeal.py")
    shutil.copy(HERE / "typed_card_play.pyx", directory / "typed_card_play.pyx")
    setup = directory / "setup.py"
    setup.write_text(
        "from setuptools import setup\n"
        "from Cython.Build import cythonize\n"
        "setup(ext_modules=cythonize(['bitdeal.py', 'typed_card_play.pyx'],"
        " language_level=3, quiet=True))\n"
    )
    subprocess.run(
        [sys.executable, str(setup), "build_ext", "--inplace"],
        cwd=directory, check=True, capture_output=True,
        env={**os.environ, "CFLAGS": "-O2"},
    )  # fmt: skip
    return next(directory.glob("bitdeal*.so")), next(directory.glob("typed*.so"))


def load_typed(path: Path):
    spec = importlib.util.spec_from_file_location("typed_card_play", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_typed(typed, python_bitdeal, states, rng) -> int:
    """Random deals played on the Python module and the typed core side by
    side: the same legal codes at every step; the steps checked."""
    steps = 0
    for state in states[:100]:
        deal = python_bitdeal.BitDeal.from_state(state)
        core = typed.Deal.of(deal, 1)
        while not deal.finished:
            legal = sorted(deal.legal())
            assert core.legal_codes() == legal, (core.legal_codes(), legal)
            code = rng.choice(legal)
            deal.play(code)
            core.play_code(code)
            steps += 1
        assert core.tricks_taken == deal.tricks
    return steps


def load_compiled(path: Path):
    """The compiled module, imported under the Python module's own name (its
    relative imports need the package) and put in its place."""
    name = "joker.bots.bitdeal"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def positions(count: int, seed: int) -> list:
    """States at the first card of a deal (dealt and bid) of the classic
    game, from seeded random games."""
    from joker import apply, legal_actions, make_rules, new_game
    from joker.shuffle import deal_cards
    from joker.state import DEAL, PLAY

    rng = random.Random(seed)
    found = []
    rules = make_rules("georgian-club", {})
    while len(found) < count:
        state = new_game(rules, 0)
        while not state.is_over:
            if state.phase == DEAL:
                state = apply(state, deal_cards(state, rng))
                continue
            if state.phase == PLAY and not state.trick and not state.trick_winners:
                found.append(state)
            state = apply(state, rng.choice(legal_actions(state)))
    return found


def engine_unit(states, rng) -> int:
    from joker import apply, legal_actions
    from joker.state import PLAY

    state = states[rng.randrange(len(states))]
    decisions = 0
    while state.phase == PLAY:
        state = apply(state, rng.choice(legal_actions(state)))
        decisions += 1
    return decisions


def bitdeal_unit(module, states, rng) -> int:
    deal = module.BitDeal.from_state(states[rng.randrange(len(states))])
    decisions = 0
    while not deal.finished:
        deal.play(rng.choice(deal.legal()))
        decisions += 1
    return decisions


def cpp_peer(states):
    """OpenSpiel's loop on oh_hell deals of the positions' sizes, dealt
    beforehand; None without open_spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    sys.path.insert(0, str(HERE.parent))
    from engine_peers import OhHellSchedule, oh_hell_deal

    sizes = sorted({state.cards_each for state in states})
    schedule = OhHellSchedule(
        pyspiel, [oh_hell_deal(pyspiel, 4, n) for n in sizes], len(sizes)
    )
    schedule.fill_pools(random.Random(4), 64)
    return lambda r: schedule.dealt_cpp(r)[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, default=7)
    parser.add_argument("--slice", type=float, default=0.5)
    args = parser.parse_args()
    sys.path.insert(0, str(BASE))
    import joker.bots.bitdeal as python_bitdeal

    with tempfile.TemporaryDirectory(prefix="bitdeal") as tmp:
        began = time.perf_counter()
        path, typed_path = build(Path(tmp))
        built = time.perf_counter() - began
        typed = load_typed(typed_path)
        compiled = load_compiled(path)
        assert compiled.__file__.endswith(".so")
        states = positions(480, 1)
        checked = check_typed(typed, python_bitdeal, states, random.Random(3))
        pool = [typed.Deal.of(python_bitdeal.BitDeal.from_state(s), 1) for s in states]
        peer = cpp_peer(states)
        engines = {
            "rules engine (legal_actions, apply)": lambda r: engine_unit(states, r),
            "BitDeal, Python": lambda r: bitdeal_unit(python_bitdeal, states, r),
            "BitDeal, compiled by Cython untyped": lambda r: bitdeal_unit(
                compiled, states, r
            ),
            "typed core, loop in C": lambda r: (
                pool[r.randrange(len(pool))].copy(r.getrandbits(63)).play_random()
            ),
        }
        if peer is not None:
            engines["OpenSpiel C++ loop (evaluate_bots)"] = peer
        rates: dict[str, list[float]] = {name: [] for name in engines}
        rng = random.Random(2)
        for round_ in range(args.slices):
            names = list(engines)
            shift = round_ % len(names)
            names = names[shift:] + names[:shift]
            for name in names:
                decisions, start = 0, CLOCK()
                while CLOCK() - start < args.slice:
                    decisions += engines[name](rng)
                rates[name].append(decisions / (CLOCK() - start))
    print(
        f"PROTOTYPE: Cython builds in {built:.0f} s; the typed core agreed with "
        f"BitDeal at {checked} steps; random card play, classic positions"
    )
    base = statistics.median(rates["rules engine (legal_actions, apply)"])
    for name, values in rates.items():
        rate = statistics.median(values)
        print(f"{name:<40}{rate:>12,.0f} cards/s {rate / base:>6.2f}x the engine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
