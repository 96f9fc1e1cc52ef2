"""Making the two bots of ``bot_strength.py`` equal: CPU time and playouts
per move measured, OpenSpiel's count of simulations calibrated on shared
positions and levelled as each game goes."""

from __future__ import annotations

import random
import time
from functools import partial

from joker import legal_actions, make_rules
from joker.bots import IsmctsBot, autopilot_action, play_game
from joker.bots.bitdeal import BitDeal

CLOCK = time.thread_time
# OpenSpiel's simulation counts tried at the calibration positions.
TRIAL_SIMULATIONS = (10, 40)
# Moves over which a side makes up what it is short of the target mean.
CATCH_UP_MOVES = 4
# Playouts started in this process (every ``BitDeal.play_out``), counted
# once ``count_playouts`` is called.
PLAYOUTS = [0]


def count_playouts() -> None:
    """Count every playout from now on (each ends in ``BitDeal.play_out``)."""
    if getattr(BitDeal.play_out, "counting", False):
        return
    play_out = BitDeal.play_out

    def counted(self):
        PLAYOUTS[0] += 1
        return play_out(self)

    counted.counting = True
    BitDeal.play_out = counted


class Timed:
    """Wraps a bot and measures its CPU time and playouts on moves that have a
    choice."""

    def __init__(self, bot):
        self.bot = bot
        self.seconds = 0.0
        self.moves = 0
        self.playouts = 0
        self.simulations_done = 0  # OpenSpiel's bot: its searches

    def choose(self, state, deal_actions):
        if len(legal_actions(state)) < 2:
            return legal_actions(state)[0]
        playouts = PLAYOUTS[0]
        start = CLOCK()
        action = self.bot.choose(state, deal_actions)
        self.seconds += CLOCK() - start
        self.playouts += PLAYOUTS[0] - playouts
        self.moves += 1
        return action


class Recorder:
    """The autopilot, keeping every position with a choice it plays."""

    def __init__(self, positions: list):
        self.positions = positions

    def choose(self, state, deal_actions):
        if len(legal_actions(state)) > 1:
            self.positions.append((state, list(deal_actions)))
        return autopilot_action(state)


def positions_of(rules, seed: int, count: int, max_deals: int | None) -> list:
    """``count`` positions spread evenly over seeded autopilot games."""
    found: list = []
    game = 0
    while len(found) < count:
        recorder = Recorder(found)
        play_game(
            rules, [recorder] * rules.players, random.Random(seed + game),
            max_deals=max_deals,
        )  # fmt: skip
        game += 1
    step = len(found) / count
    return [found[int(n * step)] for n in range(count)]


def measure(bot, positions: list) -> Timed:
    timed = Timed(bot)
    for state, deal_actions in positions:
        timed.choose(state, deal_actions)
    return timed


def calibrate(task: tuple) -> dict:
    """On the same positions: our CPU time and playouts a move at each
    budget, and OpenSpiel's cost at two counts of simulations (a fixed part
    plus a part per simulation), from which ``simulations_for`` reads the
    count that costs a given time."""
    profile, options, budgets, seed, count, peer, max_deals = task
    from openspiel_peer import TunedISMCTSBot

    count_playouts()
    rules = make_rules(profile, options)
    positions = positions_of(rules, seed, count, max_deals)
    ours = {}
    for budget in budgets:
        timed = measure(
            IsmctsBot(budget=budget, rng=random.Random(seed), timer=CLOCK), positions
        )
        ours[budget] = (timed.seconds / timed.moves, timed.playouts / timed.moves)
    trial = {
        n: measure(TunedISMCTSBot(n, seed, **peer), positions).seconds / count
        for n in TRIAL_SIMULATIONS
    }
    (low, t_low), (high, t_high) = trial.items()
    per_simulation = max((t_high - t_low) / (high - low), 1e-6)
    return {
        "profile": profile,
        "ours": ours,
        "trial": trial,
        "fixed": t_low - per_simulation * low,
        "per_simulation": per_simulation,
    }


def simulations_for(found: dict, seconds: float) -> int:
    return max(2, round((seconds - found["fixed"]) / found["per_simulation"]))


def level(bots: list, ours: list[int], target, calibrated: int, cap: int) -> None:
    """Before each of OpenSpiel's moves, its count of simulations is set
    again (and fixed for that move) so that its mean per move meets
    ``target(mine, others)``: ``("seconds", s)`` for CPU time (its CPU time
    per simulation so far into the time wanted, plus a share of what it is
    short of or over the mean so far) or ``("playouts", n)`` for a count.
    ``None`` keeps the count it has (the calibrated one at first)."""
    mine = [bots[s] for s in ours]
    others = [bot for seat, bot in enumerate(bots) if seat not in ours]

    def levelled(state, deal_actions, timed, choose):
        wanted = target(mine, others)
        if wanted is not None:
            kind, value = wanted
            if kind == "playouts":
                timed.bot.simulations = round(value)
            else:
                their_moves = sum(b.moves for b in others)
                their_time = sum(b.seconds for b in others)
                simulations = sum(b.simulations_done for b in others)
                if simulations and their_time > 0:
                    per_simulation = their_time / simulations
                    owed = value * their_moves - their_time
                    count = round((value + owed / CATCH_UP_MOVES) / per_simulation)
                    timed.bot.simulations = min(count, cap)
        moves = timed.moves
        action = choose(state, deal_actions)
        if timed.moves > moves:  # a move with a choice: timed, searched
            timed.simulations_done += timed.bot.simulations
        return action

    for timed in others:
        timed.bot.simulations = calibrated
        timed.choose = partial(levelled, timed=timed, choose=timed.choose)


def our_mean_seconds(mine: list, others: list):
    moves = sum(b.moves for b in mine)
    return ("seconds", sum(b.seconds for b in mine) / moves) if moves else None


def our_mean_playouts(mine: list, others: list):
    moves = sum(b.moves for b in mine)
    return ("playouts", sum(b.playouts for b in mine) / moves) if moves else None


def fixed_seconds(seconds: float):
    return lambda mine, others: ("seconds", seconds)
