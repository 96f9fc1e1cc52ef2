"""Rules engine speed against OpenSpiel's ``oh_hell``: the same work on both
sides, in CPU time.

Run from the repository root::

    python benchmarks/engine_speed.py [--slices N] [--slice S] [--seed N]
                                      [--no-views] [--profile] [--json FILE]

Two figures per game, each counting the same thing on both sides:

* **whole random games per second.** Ours: ``georgian-club`` classic (4
  players, 24 deals of 1 to 9 cards) and Japanese Joker (2 players, 18 cards
  each, to 21). OpenSpiel has neither, so its game is made of the same
  deals: for classic, one ``oh_hell`` game per deal of our schedule, with
  that deal's number of tricks (4 players); for Japanese, ``oh_hell`` deals
  of 12 tricks among 3 players (its fewest; 36 cards played, as in a
  Japanese deal), as many per game as our random Japanese games have deals
  on average. ``oh_hell`` turns a trump card up after the deal, so deals
  that would use all 36 cards take a 40-card deck.
* **decisions per second, deals paid.** A decision is one player action
  (naming trump, a bid, a card). Dealing is timed work on both sides (ours
  deals a hand in one step, OpenSpiel one card per chance step, its
  outcomes sampled in Python by their probabilities) and a decision on
  neither.

Both figures are CPU time of this process (``time.process_time``), so other
work on a shared machine takes none of it. The engines take turns in short
slices (``--slice`` seconds each, ``--slices`` rounds of at least 5, the
order rotating every round), so a change of load falls on all of them
alike; each figure is the median over the engine's slices. A slice plays
whole games until its time is up.

Then what each seat sees: ``view(state, seat)`` for every seat of a state,
over states collected from seeded random games, in states per CPU second;
the peer is OpenSpiel's information state of every player of ``oh_hell``
states, as a string and as a tensor (``--no-views`` skips this part).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import platform
import pstats
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from joker import apply, legal_actions, make_rules, new_game  # noqa: E402
from joker.shuffle import deal_cards  # noqa: E402
from joker.state import DEAL  # noqa: E402
from joker.view import view  # noqa: E402

# Our speed target, relative to OpenSpiel's oh_hell, in both figures.
TARGET_RATIO = 0.5
MIN_SLICES = 5
CLOCK = time.process_time
# Seeded random Japanese games played (untimed) to find how many deals a
# game has on average: OpenSpiel's Japanese game is that many deals.
DEALS_SAMPLE = 200
# oh_hell's fewest players; a Japanese deal plays 36 cards, as 3 x 12 do.
JAPANESE_PEER = {"players": 3, "tricks": 12}

INSTALL_HINT = (
    "install it with `pip install -e '.[bench]'` or `pip install open_spiel` "
    "(where the platform has a wheel for it)"
)

# name in the verdicts: (profile, options)
OUR_GAMES = {
    "classic": ("georgian-club", {}),
    "japanese": ("japanese", {"target": 21}),
}
# For the view benchmark's peer: one oh_hell deal of 8 tricks among 4.
OH_HELL_PARAMS = {
    "players": 4,
    "num_suits": 4,
    "num_cards_per_suit": 9,
    "num_tricks_fixed": 8,
}


@dataclass
class Slice:
    games: float
    decisions: int
    deal_steps: int
    seconds: float


@dataclass
class Engine:
    """One side of one game: how to play a slice of it, and its slices."""

    name: str
    game: str  # classic or japanese
    side: str  # ours or open_spiel
    play: object  # play(rng) -> (games, decisions, deal steps) of one unit
    slices: list[Slice] = field(default_factory=list)

    def games_rate(self) -> float:
        return statistics.median(s.games / s.seconds for s in self.slices)

    def decisions_rate(self) -> float:
        return statistics.median(s.decisions / s.seconds for s in self.slices)

    def per_game(self, what: str) -> float:
        games = sum(s.games for s in self.slices)
        return sum(getattr(s, what) for s in self.slices) / games


# Our engine.


def play_ours(rules, rng: random.Random) -> tuple[int, int, int]:
    """One random game with our engine: (1 game, decisions, deal steps)."""
    state = new_game(rules, first_dealer=rng.randrange(rules.players))
    decisions = deals = 0
    while not state.is_over:
        if state.phase == DEAL:
            state = apply(state, deal_cards(state, rng))
            deals += 1
        else:
            state = apply(state, rng.choice(legal_actions(state)))
            decisions += 1
    return 1, decisions, deals


def deal_sizes(rules, rng: random.Random) -> list[int]:
    """The cards each of every deal of one random game, in order."""
    state = new_game(rules, first_dealer=0)
    sizes = []
    while not state.is_over:
        if state.phase == DEAL:
            state = apply(state, deal_cards(state, rng))
            sizes.append(state.cards_each)
        else:
            state = apply(state, rng.choice(legal_actions(state)))
    return sizes


# OpenSpiel's side.


def oh_hell_deal(pyspiel, players: int, tricks: int):
    """oh_hell with ``tricks`` cards each; 36 cards, or 40 where the deal
    and the trump card it turns up would not fit in 36."""
    per_suit = 9 if players * tricks < 36 else 10
    params = {
        "players": players,
        "num_suits": 4,
        "num_cards_per_suit": per_suit,
        "num_tricks_fixed": tricks,
    }
    return pyspiel.load_game("oh_hell", params)


def play_oh_hell(game, rng: random.Random) -> tuple[int, int]:
    """One random oh_hell game (one deal): (decisions, chance steps)."""
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


def play_schedule(deals: list, deals_per_game: float, rng: random.Random):
    """The oh_hell deals of ``deals`` in turn: (games they make, decisions,
    chance steps)."""
    decisions = chance_steps = 0
    for game in deals:
        d, c = play_oh_hell(game, rng)
        decisions += d
        chance_steps += c
    return len(deals) / deals_per_game, decisions, chance_steps


def sample_outcome(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """Pick a chance action by its probability."""
    r = rng.random()
    for action, probability in outcomes:
        r -= probability
        if r < 0:
            return action
    return outcomes[-1][0]


def engines(pyspiel, version: str | None, seed: int) -> list[Engine]:
    """Our two games and, with OpenSpiel, the same deals in oh_hell."""
    result = []
    for name, (profile, options) in OUR_GAMES.items():
        rules = make_rules(profile, options)
        result.append(
            Engine(
                f"ours: {profile}", name, "ours", lambda rng, r=rules: play_ours(r, rng)
            )
        )
        if pyspiel is None:
            continue
        rng = random.Random(seed)
        if name == "classic":
            sizes = deal_sizes(rules, rng)
            deals = [oh_hell_deal(pyspiel, rules.players, n) for n in sizes]
            per_game, label = len(deals), f"{len(deals)} oh_hell deals as ours"
        else:
            per_game = statistics.mean(
                len(deal_sizes(rules, rng)) for _ in range(DEALS_SAMPLE)
            )
            deals = [oh_hell_deal(pyspiel, **JAPANESE_PEER)]
            label = f"{per_game:.2f} oh_hell deals of 3x12"
        result.append(
            Engine(
                f"open_spiel {version}: {label}",
                name,
                "open_spiel",
                lambda rng, d=deals, n=per_game: play_schedule(d, n, rng),
            )
        )
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


def profile_ours(seconds: float, seed: int, top: int = 15) -> None:
    """Our playouts under cProfile: the functions with the most own time."""
    for engine in engines(None, None, seed):
        profiler = cProfile.Profile()
        profiler.runcall(run_slice, engine, seconds, random.Random(seed))
        result = engine.slices[0]
        print(f"\n== {engine.name}: {result.decisions} decisions, {result.games} games")
        stats = pstats.Stats(profiler, stream=sys.stdout)
        stats.strip_dirs().sort_stats("tottime").print_stats(top)


def print_table(all_engines: list[Engine]) -> None:
    header = (
        f"{'game / engine':<58} {'slices':>6} {'games/s':>9} {'decisions/s':>12} "
        f"{'decisions/game':>14} {'deal steps/game':>15}"
    )
    print(header)
    print("-" * len(header))
    for engine in all_engines:
        print(
            f"{engine.game + ' ' + engine.name:<58} {len(engine.slices):>6} "
            f"{engine.games_rate():>9,.1f} {engine.decisions_rate():>12,.0f} "
            f"{engine.per_game('decisions'):>14.1f} "
            f"{engine.per_game('deal_steps'):>15.1f}"
        )


def verdicts(all_engines: list[Engine]) -> dict:
    """Ours over OpenSpiel's per game and figure, printed and returned."""
    results = {}
    for game in OUR_GAMES:
        ours, peer = (
            next(e for e in all_engines if e.game == game and e.side == side)
            for side in ("ours", "open_spiel")
        )
        ratios = {
            "games": ours.games_rate() / peer.games_rate(),
            "decisions": ours.decisions_rate() / peer.decisions_rate(),
        }
        short = [what for what, ratio in ratios.items() if ratio < TARGET_RATIO]
        verdict = "meets" if not short else "is BELOW"
        print(
            f"verdict {game}: ours / open_spiel {ratios['games']:.2f}x in whole "
            f"games/s, {ratios['decisions']:.2f}x in decisions/s with deals paid, "
            "CPU time "
            f"({verdict} the {TARGET_RATIO:.2f}x target"
            + (f"; short: {' and '.join(short)}" if short else "")
            + ")"
        )
        results[game] = {
            "ratio_games": ratios["games"],
            "ratio_decisions": ratios["decisions"],
            "meets": not short,
            "ours": summary(ours),
            "open_spiel": summary(peer),
        }
    return results


def summary(engine: Engine) -> dict:
    return {
        "name": engine.name,
        "games_per_s": engine.games_rate(),
        "decisions_per_s": engine.decisions_rate(),
        "decisions_per_game": engine.per_game("decisions"),
        "deal_steps_per_game": engine.per_game("deal_steps"),
        "slices": [asdict(s) for s in engine.slices],
    }


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--slices",
        type=int,
        default=7,
        help=f"rounds of slices, at least {MIN_SLICES} (default 7)",
    )
    parser.add_argument(
        "--slice",
        type=float,
        default=1.0,
        help="CPU seconds of each engine's slice (default 1)",
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
        f"on {platform.machine()}; {args.slices} rounds of {args.slice:g} CPU s "
        f"slices per engine, interleaved; seed {args.seed}"
    )
    all_engines = engines(pyspiel, open_spiel_version, args.seed)
    interleave(all_engines, args.slices, args.slice, args.seed)
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
        "Figures: medians over the slices, CPU time of this process; deals and "
        "OpenSpiel's chance steps are timed work and no decision."
    )
    if not args.no_views:
        print()
        results["views"] = measure_views(
            pyspiel, open_spiel_version, args.slice, args.seed
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


# What each seat sees.


@dataclass
class Result:
    name: str
    decisions: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds


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
    for about ``seconds`` of CPU time; a "decision" here is one state seen by all."""
    done = 0
    start = CLOCK()
    deadline = start + seconds
    while True:
        for state in states:
            look(state)
        done += len(states)
        now = CLOCK()
        if now >= deadline:
            return Result(name, done, now - start)


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


def measure_views(pyspiel, version, seconds: float, seed: int) -> dict:
    """States per CPU second seen by every seat; the rates by name."""
    ours = []
    for profile, options in OUR_GAMES.values():
        rules = make_rules(profile, options)
        states = our_states(rules, random.Random(seed), 2000)
        ours.append(run_views(f"ours: {profile}", states, our_views, seconds))
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
    return {result.name: result.rate for result in [*ours, *peers]}


if __name__ == "__main__":
    sys.exit(main())
