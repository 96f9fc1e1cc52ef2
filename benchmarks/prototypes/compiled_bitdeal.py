"""PROTOTYPE, not used by the product: what compiling the card play's bit-mask
move generator buys, measured.

    pip install cython        # not a dependency of the project
    python benchmarks/prototypes/compiled_bitdeal.py [--slices N] [--slice S]

``games/engine/bots/bitdeal.py`` (the card play on bit masks that the
practice bot plays out on) is compiled by Cython exactly as it is, without
a single type declaration, into a temporary directory, and loaded in place
of the Python module in a process of its own. The same random card play
(``legal()``, a random choice, ``play()``, to the end of the deal) then runs
from the same dealt and bid positions on three engines, interleaved in
slices of CPU time: the rules engine (``legal_actions`` and ``apply`` on
frozen states), ``BitDeal`` in Python and ``BitDeal`` compiled. Decisions
here are cards played only (no bids), on both.
"""

from __future__ import annotations

import argparse
import importlib.util
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


def build(directory: Path) -> Path:
    """Compile bitdeal.py with Cython and a C compiler; the module's path."""
    shutil.copy(SOURCE, directory / "bitdeal.py")
    setup = directory / "setup.py"
    setup.write_text(
        "from setuptools import setup\n"
        "from Cython.Build import cythonize\n"
        "setup(ext_modules=cythonize('bitdeal.py', language_level=3, quiet=True))\n"
    )
    subprocess.run(
        [sys.executable, str(setup), "build_ext", "--inplace"],
        cwd=directory, check=True, capture_output=True,
    )  # fmt: skip
    return next(directory.glob("bitdeal*.so"))


def load_compiled(path: Path):
    """The compiled module, imported under the Python module's own name (its
    relative imports need the package) and put in its place."""
    name = "games.engine.bots.bitdeal"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def positions(count: int, seed: int) -> list:
    """States at the first card of a deal (dealt and bid), classic and
    Japanese, from seeded random games."""
    from games.engine import apply, legal_actions, make_rules, new_game
    from games.engine.shuffle import deal_cards
    from games.engine.state import DEAL, PLAY

    rng = random.Random(seed)
    found = []
    for profile, options in (("georgian-club", {}), ("japanese", {"target": 21})):
        rules = make_rules(profile, options)
        wanted = len(found) + count
        while len(found) < wanted:
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
    from games.engine import apply, legal_actions
    from games.engine.state import PLAY

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, default=7)
    parser.add_argument("--slice", type=float, default=0.5)
    args = parser.parse_args()
    sys.path.insert(0, str(BASE))
    import games.engine.bots.bitdeal as python_bitdeal

    with tempfile.TemporaryDirectory(prefix="bitdeal") as tmp:
        began = time.perf_counter()
        path = build(Path(tmp))
        built = time.perf_counter() - began
        compiled = load_compiled(path)
        assert compiled.__file__.endswith(".so")
        states = positions(200, 1)
        engines = {
            "rules engine (legal_actions, apply)": lambda r: engine_unit(states, r),
            "BitDeal, Python": lambda r: bitdeal_unit(python_bitdeal, states, r),
            "BitDeal, compiled by Cython untyped": lambda r: bitdeal_unit(
                compiled, states, r
            ),
        }
        rates: dict[str, list[float]] = {name: [] for name in engines}
        rng = random.Random(2)
        for round_ in range(args.slices):
            names = list(engines)
            names = names[round_ % 3 :] + names[: round_ % 3]
            for name in names:
                decisions, start = 0, CLOCK()
                while CLOCK() - start < args.slice:
                    decisions += engines[name](rng)
                rates[name].append(decisions / (CLOCK() - start))
    print(f"PROTOTYPE: Cython build of bitdeal.py in {built:.0f} s; random card play")
    base = statistics.median(rates["rules engine (legal_actions, apply)"])
    for name, values in rates.items():
        rate = statistics.median(values)
        print(f"{name:<40}{rate:>12,.0f} cards/s {rate / base:>6.2f}x the engine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
