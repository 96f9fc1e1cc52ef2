"""Rules engine speed: random playouts of whole games, in decisions per second.

Run from the repository root::

    python benchmarks/engine_speed.py [--seconds S] [--seed N] [--profile]

A decision is one player action applied to the state (naming trump, a bid or a
card). Deals are chance actions: they are made and applied inside the timed
loop, but not counted. Each benchmark plays whole games for about ``--seconds``.

Measured:

* ``georgian-club`` (classic schedule, 24 deals, 4 players);
* ``japanese`` (2 players, target 21);
* when the optional ``open_spiel`` package is installed, OpenSpiel's
  ``oh_hell`` (4 players, 36 cards, 8 tricks), driven from Python the same
  way, as a reference point for a compiled trick-taking engine.

Then what each seat sees: ``view(state, seat)`` for every seat of a state,
over states collected from seeded random games, in states per second; the
peer is OpenSpiel's information state of every player of ``oh_hell``
states, as a string and as a tensor (``--no-views`` skips this part).
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import apply, legal_actions, make_rules, new_game  # noqa: E402
from games.engine.shuffle import deal_cards  # noqa: E402
from games.engine.state import DEAL  # noqa: E402
from games.engine.view import view  # noqa: E402

# Our speed target, relative to OpenSpiel's oh_hell driven from Python.
TARGET_RATIO = 0.5

OH_HELL_PARAMS = {
    "players": 4,
    "num_suits": 4,
    "num_cards_per_suit": 9,
    "num_tricks_fixed": 8,
}

INSTALL_HINT = (
    "install it with `pip install -e '.[bench]'` or `pip install open_spiel` "
    "(where the platform has a wheel for it)"
)

OUR_GAMES = (
    ("ours: georgian-club classic (24 deals)", "georgian-club", {}),
    ("ours: japanese (target 21)", "japanese", {"target": 21}),
)
# Each of our games is held to TARGET_RATIO; its name in the verdict lines.
VERDICT_NAMES = {"georgian-club": "classic", "japanese": "japanese"}


@dataclass
class Result:
    name: str
    games: int
    decisions: int
    chance_steps: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds


def play_ours(rules, rng: random.Random) -> tuple[int, int]:
    """One random game with our engine: (decisions, deals)."""
    state = new_game(rules, first_dealer=rng.randrange(rules.players))
    decisions = deals = 0
    while not state.is_over:
        if state.phase == DEAL:
            state = apply(state, deal_cards(state, rng))
            deals += 1
        else:
            state = apply(state, rng.choice(legal_actions(state)))
            decisions += 1
    return decisions, deals


def play_oh_hell(game, rng: random.Random) -> tuple[int, int]:
    """One random OpenSpiel game: (decisions, chance steps)."""
    state = game.new_initial_state()
    decisions = chance_steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            chance_steps += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions, chance_steps


def sample_outcome(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """Pick a chance action by its probability."""
    r = rng.random()
    for action, probability in outcomes:
        r -= probability
        if r < 0:
            return action
    return outcomes[-1][0]


PlayOne = Callable[[random.Random], tuple[int, int]]


def run(name: str, play_one: PlayOne, seconds: float, seed: int) -> Result:
    """Play whole games until ``seconds`` have passed (at least one game)."""
    rng = random.Random(seed)
    games = decisions = chance_steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game_decisions, game_chance = play_one(rng)
        games += 1
        decisions += game_decisions
        chance_steps += game_chance
        now = time.perf_counter()
        if now >= deadline:
            return Result(name, games, decisions, chance_steps, now - start)


def profile_run(
    name: str, play_one: PlayOne, seconds: float, seed: int, top: int = 15
) -> None:
    """``run`` under cProfile; print the functions with the most own time."""
    profiler = cProfile.Profile()
    result = profiler.runcall(run, name, play_one, seconds, seed)
    print(f"\n== {name}: {result.decisions} decisions in {result.games} games")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.strip_dirs().sort_stats("tottime").print_stats(top)


def our_states(rules, rng: random.Random, count: int) -> list:
    """States where a seat is to move, from seeded random games."""
    states = []
    while len(states) < count:
        state = new_game(rules, first_dealer=rng.randrange(rules.players))
        while not state.is_over and len(states) < count:
            if state.phase == DEAL:
                state = apply(state, deal_cards(state, rng))
            else:
                states.append(state)
                state = apply(state, rng.choice(legal_actions(state)))
    return states


def oh_hell_states(game, rng: random.Random, count: int) -> list:
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < count:
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                states.append(state.clone())
                state.apply_action(rng.choice(state.legal_actions()))
    return states


def run_views(name: str, states: list, look, seconds: float) -> Result:
    """``look(state)`` (every seat's view of it) over ``states`` in turn,
    for about ``seconds``; a "decision" here is one state seen by all."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for state in states:
            look(state)
        done += len(states)
        now = time.perf_counter()
        if now >= deadline:
            return Result(name, 1, done, 0, now - start)


def our_views(state) -> None:
    for seat in range(state.players):
        view(state, seat)


def print_views(results: list[Result], peers: list[Result]) -> None:
    header = (
        f"{'views of every seat':<48} {'states':>9} {'states/s':>10} {'vs peer':>8}"
    )
    print(header)
    print("-" * len(header))
    peer = peers[0] if peers else None
    for result in [*results, *peers]:
        ratio = f"{result.rate / peer.rate:.2f}x" if peer else "-"
        print(
            f"{result.name:<48} {result.decisions:>9} {result.rate:>10,.0f} {ratio:>8}"
        )


def load_open_spiel():
    """The pyspiel module and its version, or (None, None) when absent."""
    try:
        import pyspiel
    except ImportError:
        return None, None
    try:
        from importlib.metadata import version

        return pyspiel, version("open_spiel")
    except Exception:
        return pyspiel, "unknown version"


def print_table(results: list[Result], peer: Result | None) -> None:
    header = (
        f"{'engine / game':<40} {'games':>7} {'decisions':>10} "
        f"{'chance/game':>11} {'seconds':>8} {'decisions/s':>12} {'vs peer':>8}"
    )
    print(header)
    print("-" * len(header))
    for result in [*results, *([peer] if peer else [])]:
        ratio = f"{result.rate / peer.rate:.2f}x" if peer else "-"
        print(
            f"{result.name:<40} {result.games:>7} {result.decisions:>10} "
            f"{result.chance_steps / result.games:>11.1f} {result.seconds:>8.2f} "
            f"{result.rate:>12,.0f} {ratio:>8}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=5.0,
        help="time budget of each benchmark (default 5)",
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--no-views", action="store_true", help="skip the view() benchmark"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile our playouts with cProfile instead (top functions by tottime)",
    )
    args = parser.parse_args(argv)

    pyspiel, open_spiel_version = load_open_spiel()
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}) "
        f"on {platform.machine()}; {args.seconds:g} s per benchmark, seed {args.seed}"
    )

    ours = []
    for label, profile, options in OUR_GAMES:
        rules = make_rules(profile, options)
        play_one = partial(play_ours, rules)
        if args.profile:
            profile_run(label, play_one, args.seconds, args.seed)
            continue
        ours.append(run(label, play_one, args.seconds, args.seed))
    if args.profile:
        return 0

    peer = None
    if pyspiel is not None:
        game = pyspiel.load_game("oh_hell", OH_HELL_PARAMS)
        peer = run(
            f"open_spiel {open_spiel_version}: oh_hell",
            partial(play_oh_hell, game),
            args.seconds,
            args.seed,
        )

    print()
    print_table(ours, peer)
    print()
    if peer is None:
        print(
            "Peer NOT measured: the optional open_spiel package (pyspiel) is not "
            f"installed; {INSTALL_HINT}."
        )
        return 0
    for result, (_, profile, _) in zip(ours, OUR_GAMES, strict=True):
        ratio = result.rate / peer.rate
        verdict = "meets" if ratio >= TARGET_RATIO else "is BELOW"
        print(
            f"ours {VERDICT_NAMES[profile]} / open_spiel oh_hell: {ratio:.2f}x "
            f"({verdict} the {TARGET_RATIO:.2f}x target)"
        )
    print(
        "oh_hell parameters: "
        + ", ".join(f"{key}={value}" for key, value in OH_HELL_PARAMS.items())
    )
    print("oh_hell chance outcomes are sampled in Python by their probabilities.")
    if not args.no_views:
        print()
        measure_views(pyspiel, open_spiel_version, args.seconds, args.seed)
    return 0


def measure_views(pyspiel, version, seconds: float, seed: int) -> None:
    ours = []
    for label, profile, options in OUR_GAMES:
        rules = make_rules(profile, options)
        states = our_states(rules, random.Random(seed), 2000)
        ours.append(run_views(label, states, our_views, seconds))
    peers = []
    if pyspiel is not None:
        game = pyspiel.load_game("oh_hell", OH_HELL_PARAMS)
        states = oh_hell_states(game, random.Random(seed), 2000)
        players = range(game.num_players())

        def strings(state):
            for player in players:
                state.information_state_string(player)

        def tensors(state):
            for player in players:
                state.information_state_tensor(player)

        for kind, look in (("string", strings), ("tensor", tensors)):
            name = f"open_spiel {version}: oh_hell infostate {kind}"
            peers.append(run_views(name, states, look, seconds))
    print_views(ours, peers)


if __name__ == "__main__":
    sys.exit(main())
