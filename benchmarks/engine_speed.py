"""Rules engine speed against OpenSpiel's ``oh_hell`` played by its C++ loop:
the same deals on both sides, in CPU time, dealing excluded and included.

Run from the repository root::

    python benchmarks/engine_speed.py [--slices N] [--slice S] [--seed N]
                                      [--no-views] [--instructions]
                                      [--profile] [--json FILE]

Our games: ``georgian-club`` classic (4 players, 24 deals of 1 to 9 cards)
and Japanese Joker (2 players, 18 cards each, to 21). OpenSpiel has neither,
so it plays the same deals in ``oh_hell``: for classic one ``oh_hell`` game
per deal of our schedule, with that deal's number of tricks (4 players);
for Japanese, ``oh_hell`` deals of 12 tricks among 3 players (``oh_hell``
refuses 2 players, so 2 x 18 cannot be played; 3 x 12 plays the same 36
cards, with one bid more a deal and no trump to name). Its whole-game rate
for Japanese is its deals a second over our mean deals a game, counted in
our own slices.

The peer is ``pyspiel.evaluate_bots`` with ``make_uniform_random_bot`` in
every seat: the game loop, the bots and the chance sampling all in C++, one
call from Python a deal. The Python loop calling pyspiel for every action
(the peer before) is kept as a second line. Each side runs two ways
(``engine_peers``): *dealt*, the play of pooled deals dealt before the
timing, so that no dealing is timed (the target's figure); *whole*, whole
games with the dealing paid. A decision is one player action (naming trump,
a bid, a card), random among the legal ones.

CPU time of this process (``time.process_time``), so other work on a shared
machine takes none of it; the engines take turns in short slices
(``--slice`` seconds, ``--slices`` rounds of at least 5, the order rotating
every round), so a change of load falls on all of them alike; each figure
is the median over an engine's slices. Target: ours at least 0.5x the C++
loop in decisions a second, dealing excluded, for both games.

Loop against loop: our compiled random loop (``joker.bots.core.random_deals``:
dealing, trump, bids and the card play in C, uniformly random decisions)
one call a deal, against ``evaluate_bots`` one call a deal, whole deals of
the same sizes (classic: each deal of the schedule on its own, through
``engine_peers.one_size``; Japanese: 2 x 18 against oh_hell's 3 x 12). The
core's loop does not score its deals (it has no entry point that does);
oh_hell's returns are computed. Target: instructions per decision at most
1.0x the C++ loop's. The per-decision Python-API line (our engine, one call
an action) stays beside it.

``--instructions`` counts instructions per decision as well, under valgrind
(``engine_instructions``): a figure a busy machine does not move;
``--annotate`` adds where our compiled loop's instructions go
(``callgrind_annotate``). Then what each seat sees (``engine_views``;
``--no-views`` skips it).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from engine_peers import (  # noqa: E402
    OUR_GAMES,
    POOL_GAMES,
    CoreDeals,
    our_dealt_games,
    play_ours,
    play_ours_dealt,
    rules_of,
    schedule_for,
)

TARGET_RATIO = 0.5
# Our compiled loop's instructions a decision over the C++ loop's, at most.
LOOP_TARGET = 1.0
MIN_SLICES = 5
CLOCK = time.process_time
# Dealt oh_hell states pooled per deal size.
POOL_SIZE = 64

INSTALL_HINT = (
    "install it with `pip install -e '.[bench]'` or `pip install open_spiel` "
    "(where the platform has a wheel for it)"
)
SIDES = {
    "ours": "ours (Python engine, one call an action)",
    "core": "ours compiled (random_deals, one call a deal)",
    "cpp": "OpenSpiel C++ loop (evaluate_bots, uniform random bots)",
    "python": "OpenSpiel driven from Python (one call an action)",
}
MODES = {"dealt": "dealing excluded", "whole": "whole games, dealing paid"}


@dataclass
class Slice:
    games: float
    decisions: int
    deal_steps: int
    seconds: float


@dataclass
class Engine:
    """One side of one game played one way: how to play a unit, its slices."""

    game: str  # classic or japanese
    side: str  # ours, cpp or python
    mode: str  # dealt or whole
    play: object  # play(rng) -> (games, decisions, deal steps)
    label: str = ""
    slices: list[Slice] = field(default_factory=list)
    # A Japanese peer counts deals; our mean deals a game makes them games.
    deals_per_game: float = 1.0

    @property
    def name(self) -> str:
        return f"{self.game} {self.mode} {self.side}"

    def games_rate(self) -> float:
        return statistics.median(
            s.games / self.deals_per_game / s.seconds for s in self.slices
        )

    def decisions_rate(self) -> float:
        return statistics.median(s.decisions / s.seconds for s in self.slices)

    def per_game(self, what: str) -> float:
        games = sum(s.games for s in self.slices) / self.deals_per_game
        return sum(getattr(s, what) for s in self.slices) / games


def engines(pyspiel, version: str | None, seed: int) -> list[Engine]:
    """Our two games, dealt and whole, and with OpenSpiel the same deals."""
    result = []
    for name in OUR_GAMES:
        rules = rules_of(name)
        pool = our_dealt_games(rules, random.Random(seed), POOL_GAMES)
        result += [
            Engine(name, "ours", "dealt", lambda rng, p=pool: play_ours_dealt(p, rng)),
            Engine(name, "ours", "whole", lambda rng, r=rules: play_ours(r, rng)),
            Engine(name, "core", "whole", CoreDeals(rules).whole),
        ]
        if pyspiel is None:
            continue
        rng = random.Random(seed)
        schedule = schedule_for(pyspiel, name, rules, rng)
        schedule.fill_pools(rng, POOL_SIZE)
        deals = schedule.deals
        sizes = ",".join(str(g.get_parameters()["num_tricks_fixed"]) for g in deals)
        label = f"open_spiel {version}: {name}, oh_hell deals of {sizes} tricks"
        for side, mode, play in (
            ("cpp", "dealt", schedule.dealt_cpp),
            ("cpp", "whole", schedule.whole_cpp),
            ("python", "dealt", schedule.dealt_python),
            ("python", "whole", schedule.whole_python),
        ):
            result.append(Engine(name, side, mode, play, label))
    return result


def run_slice(engine: Engine, seconds: float, rng: random.Random) -> None:
    """Play whole units of ``engine`` for ``seconds`` of CPU time (at least one)."""
    games = 0.0
    decisions = deal_steps = 0
    start = CLOCK()
    while True:
        g, d, c = engine.play(rng)
        games += g
        decisions += d
        deal_steps += c
        spent = CLOCK() - start
        if spent >= seconds:
            engine.slices.append(Slice(games, decisions, deal_steps, spent))
            return


def interleave(all_engines: list[Engine], slices: int, seconds: float, seed: int):
    """``slices`` rounds, each a slice of every engine, the order rotating."""
    rngs = [random.Random(seed + n) for n in range(len(all_engines))]
    for round_ in range(slices):
        shift = round_ % len(all_engines)
        order = list(range(len(all_engines)))
        order = order[shift:] + order[:shift]
        for n in order:
            run_slice(all_engines[n], seconds, rngs[n])


def find(all_engines, game, side, mode) -> Engine:
    return next(
        e for e in all_engines if (e.game, e.side, e.mode) == (game, side, mode)
    )


def set_japanese_games(all_engines: list[Engine]) -> None:
    """The Japanese peers' deals into games: our mean deals a whole game, from
    every game of our whole slices."""
    ours = find(all_engines, "japanese", "ours", "whole")
    deals = sum(s.deal_steps for s in ours.slices) / sum(s.games for s in ours.slices)
    for engine in all_engines:
        if engine.game == "japanese" and engine.side != "ours":
            engine.deals_per_game = deals


def print_table(all_engines: list[Engine]) -> None:
    header = (
        f"{'game':<9}{'side':<58}{'':<27}{'games/s':>9}{'decisions/s':>13}"
        f"{'decisions/game':>15}{'deal steps/game':>16}"
    )
    print(header)
    print("-" * len(header))
    for e in all_engines:
        print(
            f"{e.game:<9}{SIDES[e.side]:<58}{MODES[e.mode]:<27}"
            f"{e.games_rate():>9,.1f}{e.decisions_rate():>13,.0f}"
            f"{e.per_game('decisions'):>15.1f}{e.per_game('deal_steps'):>16.1f}"
        )
    labels = {e.label for e in all_engines if e.label}
    for label in sorted(labels):
        print(f"  peer: {label}")


def ratio(all_engines, game, peer_side, mode, what="decisions", side="ours") -> float:
    ours = find(all_engines, game, side, mode)
    peer = find(all_engines, game, peer_side, mode)
    if what == "games":
        return ours.games_rate() / peer.games_rate()
    return ours.decisions_rate() / peer.decisions_rate()


def verdicts(all_engines: list[Engine]) -> dict:
    """Ours over the peers per game, printed and returned."""
    results = {}
    for game in OUR_GAMES:
        r = {
            f"{peer}_{mode}_{what}": ratio(all_engines, game, peer, mode, what)
            for peer in ("cpp", "python")
            for mode in ("dealt", "whole")
            for what in ("decisions", "games")
            if not (mode == "dealt" and what == "games")
        }
        met = r["cpp_dealt_decisions"] >= TARGET_RATIO
        print(
            f"verdict {game}: ours / OpenSpiel's C++ loop "
            f"{r['cpp_dealt_decisions']:.3f}x in decisions/s with dealing excluded "
            f"({'meets' if met else 'MISSES'} the {TARGET_RATIO:.2f}x target); "
            f"dealing included {r['cpp_whole_decisions']:.3f}x decisions/s, "
            f"{r['cpp_whole_games']:.3f}x games/s, CPU time"
        )
        print(
            f"  against the Python-driven pyspiel loop (second line): "
            f"{r['python_dealt_decisions']:.2f}x dealing excluded, "
            f"{r['python_whole_decisions']:.2f}x decisions/s and "
            f"{r['python_whole_games']:.2f}x games/s dealing included"
        )
        loop = ratio(all_engines, game, "cpp", "whole", side="core")
        r["core_cpp_whole_decisions"] = loop
        print(
            f"  loop against loop: our compiled random loop (random_deals, one "
            f"call a deal, dealing and bids in C) / OpenSpiel's C++ loop "
            f"(evaluate_bots, one call a deal) {loop:.3f}x in decisions/s, CPU "
            f"time, whole deals of the same sizes"
        )
        results[game] = {
            "ratios": r,
            "meets": met,
            "engines": [summary(e) for e in all_engines if e.game == game],
        }
    return results


def summary(engine: Engine) -> dict:
    return {
        "side": engine.side,
        "mode": engine.mode,
        "label": engine.label,
        "games_per_s": engine.games_rate(),
        "decisions_per_s": engine.decisions_rate(),
        "decisions_per_game": engine.per_game("decisions"),
        "deal_steps_per_game": engine.per_game("deal_steps"),
        "slices": [asdict(s) for s in engine.slices],
    }


def profile_ours(seconds: float, seed: int, top: int = 20) -> None:
    """Our dealt play under cProfile: the functions with the most own time."""
    for engine in engines(None, None, seed):
        if engine.mode != "dealt":
            continue
        profiler = cProfile.Profile()
        profiler.runcall(run_slice, engine, seconds, random.Random(seed))
        result = engine.slices[0]
        print(f"\n== {engine.name}: {result.decisions} decisions")
        stats = pstats.Stats(profiler, stream=sys.stdout)
        stats.strip_dirs().sort_stats("tottime").print_stats(top)


def load_open_spiel():
    """The pyspiel module and its version, or (None, None) when absent."""
    try:
        import pyspiel
    except ImportError:
        return None, None
    from importlib.metadata import PackageNotFoundError, version

    try:
        return pyspiel, version("open_spiel")
    except PackageNotFoundError:
        return pyspiel, "unknown version"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, default=7, help="rounds (default 7)")
    parser.add_argument(
        "--slice", type=float, default=0.5, help="CPU seconds a slice (default 0.5)"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--no-views", action="store_true", help="skip the views")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile our dealt play with cProfile instead (top functions)",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count instructions per decision under valgrind (a few minutes)",
    )
    parser.add_argument(
        "--annotate",
        action="store_true",
        help="with --instructions: where our compiled loop's instructions go",
    )
    parser.add_argument(
        "--loop-only",
        action="store_true",
        help="with --instructions: count the loop-against-loop line only",
    )
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    if args.slices < MIN_SLICES:
        parser.error(f"--slices is at least {MIN_SLICES}: each figure is a median")

    if args.profile:
        profile_ours(args.slice, args.seed)
        return 0
    pyspiel, open_spiel_version = load_open_spiel()
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}) "
        f"on {platform.machine()}, {os.cpu_count()} CPUs, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start; "
        f"{args.slices} rounds of {args.slice:g} CPU s slices per engine, "
        f"interleaved; seed {args.seed}"
    )
    all_engines = engines(pyspiel, open_spiel_version, args.seed)
    interleave(all_engines, args.slices, args.slice, args.seed)
    if pyspiel is not None:
        set_japanese_games(all_engines)
    print()
    print_table(all_engines)
    print()
    if pyspiel is None:
        print(
            "Peer NOT measured: the optional open_spiel package (pyspiel) is not "
            f"installed; {INSTALL_HINT}."
        )
        return 0
    results = verdicts(all_engines)
    print(
        "Figures: medians over the slices, CPU time of this process; a decision "
        "is a player action, dealing none."
    )
    if args.instructions:
        from engine_instructions import measure

        results["instructions"] = measure(
            list(OUR_GAMES), args.seed, annotate=args.annotate, loop_only=args.loop_only
        )
    if not args.no_views:
        from engine_views import measure_views

        print()
        results["views"] = measure_views(
            pyspiel, open_spiel_version, args.slice, args.seed
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
