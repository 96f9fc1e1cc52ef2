"""What each seat sees, for ``engine_speed.py``: ``view(state, seat)`` for
every seat of a state, over states collected from seeded random games, in
states per CPU second, beside OpenSpiel's information state of every player
of ``oh_hell`` states, as a string and as a tensor."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engine_peers import OUR_GAMES, sample_outcome

from joker import apply, legal_actions, make_rules, new_game
from joker.shuffle import deal_cards
from joker.state import DEAL
from joker.view import view

CLOCK = time.process_time
# The peer: one oh_hell deal of 8 tricks among 4.
OH_HELL_PARAMS = {
    "players": 4,
    "num_suits": 4,
    "num_cards_per_suit": 9,
    "num_tricks_fixed": 8,
}


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
