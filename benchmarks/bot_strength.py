"""Playing strength of the practice bot (``IsmctsBot``), scored deal by deal
on duplicate deals, against OpenSpiel's ``ISMCTSBot`` made as strong as it
fairly can be and against today's bot.

Run from the repository root::

    python benchmarks/bot_strength.py [--deals N] [--seed S] [--jobs J]
                                      [--only NAME ...] [--headline | --smoke]
                                      [--json FILE]

**A deal set** is one deal: its shuffle, its dealer, its size (the deal's
place in the profile's schedule, drawn at random: every size of classic's
24 deals in its turn) and the game before it (the deals before it played by
the autopilot from the same seed, so that the scoresheet and the pulka's
premiums stand as they would in a game: the bots' results weigh them). It
is played once from every seat rotation: our bot in each seat in turn
against the opponent bots in the others (classic: 4 rotations, three
opponents; Japanese Joker: 2, the seats swapped). The same cards, the same
context, every seat.

**The score of a deal set** is the mean over its rotations of our seat's
result less the opponents': classic, our deal score (in points, as the game
scores it) less the mean of the other three; Japanese, our tricks less the
opponent's. The figure is the mean over deal sets with a 95% t interval
over deal sets (not over single deals or games): sets are independent,
rotations within a set are not.

**Deals**: ``--deals`` deals played per match-up (2,000 by default: 500
deal sets of four rotations in classic, 1,000 of two in Japanese), spread
over ``--jobs`` processes (2), each deal set whole in one process.

Match-ups (``--only`` picks some):

* ``{classic,japanese}-cpu``: ours at 25 ms of CPU a move against the peer
  at equal CPU a move (its simulations a move levelled as it plays to our
  mean CPU so far, in that process);
* ``{classic,japanese}-iterations``: the two at equal playouts a move:
  ours samples ``ITERATION_DEALS`` x ``WALKS`` deals a move whatever the
  time they take, walking its search tree once on each at a card (an
  iteration as the peer's: a deal of its own for each walk; the practice
  bot walks ``WALKS`` times a deal, for the CPU), playing each out once
  per candidate at a trump or bid (``IsmctsBot.playouts``);
  the peer's simulations a move (one sampled deal and one leaf playout
  each) are set to our mean playouts a move so far. At our 25 ms budget
  the peer would need seconds a move for as many playouts, hence the fixed
  count;
* ``{classic,japanese}-25-vs-100``: ours at 25 ms, the peer at 100 ms;
* ``{classic,japanese}-normal-vs-today``: our ``normal`` level against
  today's ``normal`` (the bot of commit 201fa42, ``baseline_bot``);
* ``{classic,japanese}-strong-vs-today``: ``strong`` against ``strong``.

Targets: against the peer (all six), the interval's lower bound above 0;
normal against today's, the lower bound above -1 point a deal (classic) or
-0.1 tricks (Japanese), with ours at most a tenth of today's CPU a move;
strong against today's strong, above 0.

The peer (``openspiel_peer.TunedISMCTSBot``): OpenSpiel's ``ISMCTSBot``
whose leaf playouts run our autopilot policy on our compiled core, as our
bot's do (``openspiel_joker.CoreRollout``), with a bid-aware sampler built
once a move, its own seed and a tuned ``uct_c`` and final policy.

CPU: every side's thinking is the CPU time of the thinking thread
(``time.thread_time``), which other work on a shared machine does not
take; our bot and today's are given that clock for their budgets. Each
result prints the CPU each side really used a move (mean and p90, moves
with a choice only) and its playouts a move (the peer's simulations).

``--headline`` is the cut that fits an hour of two cores (see
``HEADLINE``); ``--smoke`` plays a few deal sets of each match-up in
seconds, to show that everything runs.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from joker import apply, legal_actions, make_rules, new_game  # noqa: E402
from joker.bots import IsmctsBot, autopilot_action  # noqa: E402
from joker.bots.ismcts import WALKS, SearchOptions  # noqa: E402
from joker.shuffle import deal_cards  # noqa: E402
from joker.state import DEAL, OVER  # noqa: E402

CLOCK = time.thread_time
GAMES = {"classic": ("georgian-club", {}), "japanese": ("japanese", {"target": 21})}
OURS_SECONDS = 0.025  # our budget a move against the peer
# Our deals a move in the equal-playouts match-ups: small enough that the
# peer's as many simulations (about 0.5 ms each in classic) fit the
# headline's hour.
ITERATION_DEALS = 32
THEIR_SECONDS = 0.1  # the peer's CPU a move in the 25-vs-100 match-ups
DEALS = 2000  # deals played per match-up, by default
# Targets on the interval's lower bound of the per-deal score.
FLOOR = {"classic": -1.0, "japanese": -0.1}  # the new normal against today's
CPU_SHARE = 0.1  # the new normal's CPU a move, at most, of today's normal's
MODES = ("cpu", "iterations", "25-vs-100", "normal-vs-today", "strong-vs-today")
MATCHUPS = {f"{game}-{mode}": (game, mode) for mode in MODES for game in GAMES}
# The peer's simulations a move before it has measured its own cost, and
# the most it may be given.
FIRST_SIMULATIONS = 16
MAX_SIMULATIONS = 20000
# Moves over which the peer makes up what it is short of the target mean.
CATCH_UP_MOVES = 4

# The headline cut, for an hour of two cores (7,200 CPU s): the match-ups
# against the peer, with the deals each that fit. Estimated from the CPU a
# move measured (benchmarks/README.md), in CPU s: classic-cpu 1,000
# (2 s a set of four deals), japanese-cpu 700, classic-iterations 1,400
# (the peer 70 ms a move at our iterations), japanese-iterations 700,
# classic-25-vs-100 770 (400 deals), japanese-25-vs-100 800 (400 deals),
# about 5,400 with the engine and the deals' context on top: under the hour.
# The match-ups against today's bot (its normal level thinks 250 ms a
# move, its strong 1 s: about 10 and 40 CPU s a classic deal) do not fit
# beside them and are a run of their own (``--only``).
HEADLINE = {
    "classic-cpu": 2000,
    "japanese-cpu": 2000,
    "classic-iterations": 1000,
    "japanese-iterations": 2000,
    "classic-25-vs-100": 400,
    "japanese-25-vs-100": 400,
}
# One deal set of each; the strong levels' take minutes, so only ``--only``
# names them.
SMOKE = {name: (4 if name.startswith("classic") else 2) for name in MATCHUPS}


# Playing one deal set.


class Levels:
    """What each side of a match-up has used so far in this process, for
    levelling the peer: our CPU and iterations a move, the peer's CPU a
    simulation."""

    def __init__(self):
        self.our_seconds = self.our_moves = self.our_iterations = 0.0
        self.their_seconds = self.their_simulations = 0.0
        self.their_moves = 0

    def simulations(self, mode: str) -> int:
        """The peer's simulations for its next move."""
        if mode == "iterations":
            if not self.our_moves:
                return FIRST_SIMULATIONS
            return round(self.our_iterations / self.our_moves)
        if mode == "cpu":
            if not self.our_moves:
                return FIRST_SIMULATIONS
            wanted = self.our_seconds / self.our_moves
        else:
            wanted = THEIR_SECONDS
        if not self.their_simulations or self.their_seconds <= 0:
            return FIRST_SIMULATIONS
        per_simulation = self.their_seconds / self.their_simulations
        owed = wanted * self.their_moves - self.their_seconds
        return round((wanted + owed / CATCH_UP_MOVES) / per_simulation)


LEVELS: dict[str, Levels] = {}


class Side:
    """A bot in a seat, its CPU time and iterations on moves with a choice."""

    def __init__(self, bot, ours: bool, levels: Levels, mode: str):
        self.bot, self.ours, self.levels, self.mode = bot, ours, levels, mode
        self.peer = hasattr(bot, "simulations")
        self.seconds: list[float] = []
        self.iterations: list[int] = []

    def choose(self, state, deal_actions):
        levels = self.levels
        if self.peer:
            count = levels.simulations(self.mode)
            self.bot.simulations = min(MAX_SIMULATIONS, max(2, count))
        start = CLOCK()
        action = self.bot.choose(state, deal_actions)
        spent = CLOCK() - start
        self.seconds.append(spent)
        if self.peer:
            done = self.bot.simulations
            levels.their_seconds += spent
            levels.their_simulations += done
            levels.their_moves += 1
        else:
            # Playouts a move; today's bot plays one a deal it samples.
            counts = getattr(self.bot, "playouts", self.bot.iterations)
            done = counts[-1] if counts else 0
            if self.ours:
                levels.our_seconds += spent
                levels.our_iterations += done
                levels.our_moves += 1
        self.iterations.append(done)
        return action


def make_bot(mode: str, ours: bool, seed: int):
    if mode in ("normal-vs-today", "strong-vs-today"):
        level = mode.split("-")[0]
        if ours:
            return IsmctsBot(level=level, rng=random.Random(seed), timer=CLOCK)
        from baseline_bot import BaselineBot

        return BaselineBot(level=level, rng=random.Random(seed), timer=CLOCK)
    if ours and mode == "iterations":
        # An iteration as the peer's: a sampled deal of its own for each
        # walk down the tree, as many walks a move as the practice bot's
        # ITERATION_DEALS deals of WALKS walks each.
        return IsmctsBot(
            budget=60.0,  # no limit but the deals
            max_iterations=ITERATION_DEALS * WALKS,
            rng=random.Random(seed),
            timer=CLOCK,
            options=SearchOptions(walks=1),
        )
    if ours:
        return IsmctsBot(budget=OURS_SECONDS, rng=random.Random(seed), timer=CLOCK)
    from openspiel_peer import TunedISMCTSBot

    return TunedISMCTSBot(FIRST_SIMULATIONS, seed)


def deal_place(rules, seed: int) -> tuple[random.Random, int, int]:
    """A deal set's seeded draws: its random source, first dealer and
    place in the schedule (the deals before it)."""
    rng = random.Random(seed)
    dealer = rng.randrange(rules.players)
    return rng, dealer, rng.randrange(len(rules.schedule)) if rules.schedule else 0


def deal_set(rules, seed: int):
    """A deal set: the state before the deal (its game so far played by the
    autopilot) and the deal's cards, both from ``seed``."""
    rng, dealer, before = deal_place(rules, seed)
    state = new_game(rules, first_dealer=dealer)
    for _ in range(before):
        state = apply(state, deal_cards(state, rng))
        while state.phase not in (DEAL, OVER):
            state = apply(state, autopilot_action(state))
    return state, deal_cards(state, rng)


def play_deal(state, bots: list):
    """The deal of ``state`` (just dealt) played by ``bots`` by seat."""
    deal_actions: list = []
    while state.phase not in (DEAL, OVER):
        actions = legal_actions(state)
        if len(actions) == 1:
            action = actions[0]
        else:
            action = bots[state.turn].choose(state, list(deal_actions))
        state = apply(state, action)
        deal_actions.append(action)
    return state.deals[-1]


def play_rotations(dealt, seated, seed: int) -> tuple[list[float], list, list]:
    """The deal ``dealt`` played from every seat rotation, our side in each
    seat in turn: ``seated(seat, ours, bot_seed)`` makes the side in a seat.
    Our result less the others' in each rotation (classic: deal scores,
    less their mean; Japanese: tricks), our sides and theirs."""
    players = dealt.rules.players
    scores, ours, theirs = [], [], []
    for our_seat in range(players):
        bots = [
            seated(seat, seat == our_seat, seed * 8 + seat * 2 + (seat == our_seat))
            for seat in range(players)
        ]
        result = play_deal(dealt, bots)
        others = [s for s in range(players) if s != our_seat]
        if dealt.rules.is_japanese:
            score = result.tricks[our_seat] - result.tricks[others[0]]
        else:
            score = result.scores[our_seat] - statistics.fmean(
                result.scores[s] for s in others
            )
        scores.append(score)
        ours.append(bots[our_seat])
        theirs += [bots[s] for s in others]
    return scores, ours, theirs


def play_set(task: dict) -> dict:
    """Every rotation of one deal set: its score and what each side used."""
    name, index, seed = task["name"], task["index"], task["seed"]
    started = time.process_time()
    game, mode = MATCHUPS[name]
    rules = make_rules(*GAMES[game])
    levels = LEVELS.setdefault(name, Levels())
    before, deal = deal_set(rules, seed * 1_000_003 + index)
    dealt = apply(before, deal)

    def seated(seat: int, ours: bool, bot_seed: int) -> Side:
        return Side(make_bot(mode, ours, bot_seed), ours, levels, mode)

    scores, ours, theirs = play_rotations(dealt, seated, seed * 100_003 + index)
    return {
        "name": name,
        "index": index,
        "deal_index": before.deal_index,
        "cards": dealt.cards_each,
        "score": statistics.fmean(scores),
        "rotations": scores,
        "cpu_s": time.process_time() - started,
        **{
            f"{side}_{what}": [x for b in bots for x in getattr(b, what)]
            for side, bots in (("our", ours), ("their", theirs))
            for what in ("seconds", "iterations")
        },
    }


# Reporting.


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% t interval."""
    n = len(values)
    mean = statistics.fmean(values)
    if n < 2:
        return mean, -math.inf, math.inf
    try:
        from scipy.stats import t

        quantile = float(t.ppf(0.975, n - 1))
    except ImportError:  # the normal quantile: close enough from 30 sets on
        quantile = statistics.NormalDist().inv_cdf(0.975)
    half = quantile * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def p90(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=10)[-1]


def summarise(name: str, sets: list[dict]) -> dict:
    game, mode = MATCHUPS[name]
    mean, low, high = interval([s["score"] for s in sets])
    figures = {"name": name, "game": game, "mode": mode, "sets": len(sets)}
    figures["deals"] = sum(len(s["rotations"]) for s in sets)
    figures.update(score=mean, low95=low, high95=high)
    for side in ("our", "their"):
        seconds = [x for s in sets for x in s[f"{side}_seconds"]]
        iterations = [x for s in sets for x in s[f"{side}_iterations"]]
        figures[f"{side}_moves"] = len(seconds)
        figures[f"{side}_cpu_ms"] = 1000 * statistics.fmean(seconds or [0])
        figures[f"{side}_cpu_p90_ms"] = 1000 * p90(seconds)
        figures[f"{side}_iterations"] = statistics.fmean(iterations or [0])
    floor = FLOOR[game] if mode == "normal-vs-today" else 0.0
    figures["cpu_s"] = sum(s.get("cpu_s", 0.0) for s in sets)
    figures["floor"] = floor
    figures["meets"] = low > floor
    if mode == "normal-vs-today":
        share = figures["our_cpu_ms"] / max(figures["their_cpu_ms"], 1e-9)
        figures["cpu_share"] = share
        figures["meets"] = figures["meets"] and share <= CPU_SHARE
    return figures


def describe(f: dict) -> str:
    unit = "tricks" if f["game"] == "japanese" else "points"
    how = {
        "cpu": "ours 25 ms, peer at equal CPU",
        "iterations": (
            f"ours {ITERATION_DEALS * WALKS} deals of a walk each, "
            "peer at equal playouts"
        ),
        "25-vs-100": "ours 25 ms, peer 100 ms",
        "normal-vs-today": "our normal against today's normal",
        "strong-vs-today": "our strong against today's strong",
    }[f["mode"]]
    target = f"lower bound above {f['floor']:+g}"
    if f["mode"] == "normal-vs-today":
        share = f["cpu_share"]
        target += f" and at most {CPU_SHARE:g}x today's CPU (ours {share:.2f}x)"
    return (
        f"verdict {f['name']} ({how}): {f['score']:+.2f} {unit} a deal (95% "
        f"{f['low95']:+.2f} to {f['high95']:+.2f} over {f['sets']} deal sets, "
        f"{f['deals']} deals; {'meets' if f['meets'] else 'MISSES'}: {target}); "
        f"CPU a move ours {f['our_cpu_ms']:.1f} ms (p90 {f['our_cpu_p90_ms']:.1f}), "
        f"theirs {f['their_cpu_ms']:.1f} ms (p90 {f['their_cpu_p90_ms']:.1f}); "
        f"playouts a move ours {f['our_iterations']:.0f}, "
        f"theirs {f['their_iterations']:.0f}"
        + (f"; {f['cpu_s']:.0f} CPU s in all" if f["cpu_s"] else "")
    )


def tasks_for(counts: dict, seed: int) -> list[dict]:
    """Every deal set of every match-up; a match-up's ``counts`` deals are
    ``counts / players`` sets (rounded up)."""
    tasks = []
    for name, deals in counts.items():
        players = make_rules(*GAMES[MATCHUPS[name][0]]).players
        sets = math.ceil(deals / players)
        tasks += [{"name": name, "index": i, "seed": seed} for i in range(sets)]
    # Interleaved, so that a cut-short run has some of every match-up.
    tasks.sort(key=lambda task: (task["index"], task["name"]))
    return tasks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=DEALS, help="per match-up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", choices=list(MATCHUPS))
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--headline", action="store_true", help="an hour of 2 cores")
    form.add_argument("--smoke", action="store_true", help="a few deal sets each")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument(
        "--sets-file",
        type=Path,
        help="append every deal set's result here as it ends (JSON lines)",
    )
    parser.add_argument(
        "--from-sets",
        type=Path,
        help="only report the figures of the deal sets in this file (a run "
        "cut short, or several runs put together)",
    )
    args = parser.parse_args(argv)
    if min(args.deals, args.jobs) < 1:
        parser.error("--deals and --jobs must be at least 1")
    if args.from_sets:
        report(read_sets(args.from_sets), args.json)
        return 0
    try:
        import openspiel_peer  # noqa: F401
    except ImportError:
        print("open_spiel is NOT installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    if args.headline:
        counts = dict(HEADLINE)
    elif args.smoke:
        counts = {k: v for k, v in SMOKE.items() if not k.endswith("strong-vs-today")}
    else:
        counts = dict.fromkeys(MATCHUPS, args.deals)
    if args.only:
        fallback = SMOKE if args.smoke else {}
        counts = {
            name: counts.get(name, fallback.get(name, args.deals)) for name in args.only
        }
    if args.smoke:
        check_core_deals()
    print(
        f"bots: {os.cpu_count()} CPUs, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start; "
        f"{args.jobs} processes; thinking is CPU time (time.thread_time); seed "
        f"{args.seed}; deals per match-up: "
        + ", ".join(f"{name} {deals}" for name, deals in counts.items()),
        flush=True,
    )
    tasks = tasks_for(counts, args.seed)
    sets: dict[str, list] = {name: [] for name in counts}
    start, cpu = time.perf_counter(), time.process_time()
    saved = args.sets_file.open("a") if args.sets_file else None
    with Pool(args.jobs) as pool:
        for done, result in enumerate(pool.imap_unordered(play_set, tasks), 1):
            sets[result["name"]].append(result)
            if saved:
                saved.write(json.dumps(result) + "\n")
                saved.flush()
            if done % max(1, len(tasks) // 20) == 0:
                print(
                    f"  {done}/{len(tasks)} deal sets, "
                    f"{time.perf_counter() - start:.0f} s",
                    flush=True,
                )
    print(
        f"{len(tasks)} deal sets in {time.perf_counter() - start:.0f} s of wall time "
        f"with {args.jobs} processes (this process {time.process_time() - cpu:.0f} "
        f"CPU s)"
    )
    report(sets, args.json)
    return 0


def read_sets(path: Path) -> dict[str, list]:
    """The deal sets of a ``--sets-file`` (gzipped if it ends in .gz)."""
    sets: dict[str, list] = {}
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else None
    for line in (text if text is not None else path.read_text()).splitlines():
        if line.strip():
            result = json.loads(line)
            sets.setdefault(result["name"], []).append(result)
    return sets


def report(sets: dict[str, list], path: Path | None) -> None:
    figures = [summarise(name, found) for name, found in sets.items() if found]
    for f in figures:
        print(describe(f))
    if path:
        path.write_text(json.dumps({"figures": figures}, indent=2) + "\n")


def check_core_deals() -> None:
    """The peer's leaf deals on the core held to ``BitDeal`` (while it exists)."""
    from core_deal import check

    from joker.state import PLAY

    for game, (profile, options) in GAMES.items():
        rules = make_rules(profile, options)
        rng, states = random.Random(7), []
        for index in range(6):
            state = apply(*deal_set(rules, index))
            while state.phase not in (DEAL, OVER):
                if state.phase == PLAY:
                    states.append(state)
                state = apply(state, rng.choice(legal_actions(state)))
        print(f"core deals of the peer's leaves, {game}: {check(states)} checked")


if __name__ == "__main__":
    sys.exit(main())
