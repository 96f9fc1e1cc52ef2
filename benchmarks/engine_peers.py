"""The two sides of ``engine_speed.py``: our engine and OpenSpiel's ``oh_hell``
on the same deals, each as *units* of work a slice repeats.

A unit returns ``(games, decisions, deal steps)``: the games it makes (a
fraction for OpenSpiel, whose game is made of our deals), the player actions
it took and the chance steps (deals) it took. Each side is played two ways:

* **whole**: whole games from the start, the dealing paid (ours one step a
  hand with ``deal_cards``, OpenSpiel one chance step a card);
* **dealt**: the play of deals that were dealt before the timing (a pool of
  dealt states collected from seeded games), each from its first decision
  to its end, so that no dealing is timed at all. OpenSpiel's pool holds
  states cloned into every unit (``State.clone``, a copy in C++); ours
  holds immutable engine states, which need no copy.

OpenSpiel's side is played two ways as well: by ``pyspiel.evaluate_bots``
with ``make_uniform_random_bot`` in every seat, the whole game loop in C++
(its chance outcomes sampled in C++ too), which is the peer; and, as a
second line, by a Python loop calling pyspiel for each action, as the
benchmark did before.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

from joker import apply, legal_actions, make_rules, new_game
from joker.shuffle import deal_cards
from joker.state import DEAL

# name in the verdicts: (profile, options)
OUR_GAMES = {
    "classic": ("georgian-club", {}),
    "japanese": ("japanese", {"target": 21}),
}
# oh_hell's fewest players is 3 (it refuses 2), so a Japanese deal of 2 x 18
# cards is played by OpenSpiel as 3 x 12: 36 cards played, as in ours.
JAPANESE_PEER = {"players": 3, "tricks": 12}
# Seeded games whose deals fill the pools of dealt states.
POOL_GAMES = 40


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


def our_dealt_games(rules, rng: random.Random, count: int) -> list[list]:
    """The dealt states of ``count`` random games, each game's in order."""
    games = []
    for _ in range(count):
        state = new_game(rules, first_dealer=rng.randrange(rules.players))
        dealt = []
        while not state.is_over:
            if state.phase == DEAL:
                state = apply(state, deal_cards(state, rng))
                dealt.append(state)
            else:
                state = apply(state, rng.choice(legal_actions(state)))
        games.append(dealt)
    return games


def play_ours_dealt(games: list[list], rng: random.Random) -> tuple[int, int, int]:
    """The deals of one pooled game, each from its first decision to its end:
    (1 game, decisions, 0 deal steps)."""
    decisions = 0
    for state in games[rng.randrange(len(games))]:
        while state.phase != DEAL and not state.is_over:
            state = apply(state, rng.choice(legal_actions(state)))
            decisions += 1
    return 1, decisions, 0


def deal_sizes(rules, rng: random.Random) -> list[int]:
    """The cards each of every deal of one random game, in order."""
    return [state.cards_each for state in our_dealt_games(rules, rng, 1)[0]]


# Our compiled loop (``joker.bots.core.random_deals``): whole deals in C,
# one call a deal, against ``evaluate_bots``, one call a deal.


def one_size(rules, index: int):
    """``rules`` with a schedule of one deal, the ``index``-th of its own,
    as ``random_deals`` reads rules: so that one call plays one deal of a
    chosen size (its trump named or turned as in the real schedule)."""
    cards, named = rules.cards_in_deal(index), rules.trump_is_named(index)
    return SimpleNamespace(
        players=rules.players,
        is_japanese=rules.is_japanese,
        lead_modes=rules.lead_modes,
        answer_modes=rules.answer_modes,
        schedule=(cards,),
        cards_in_deal=lambda i: cards,
        trump_is_named=lambda i: named,
    )


class CoreDeals:
    """Our compiled random loop over whole deals (dealing, trump, bids and
    the card play in C; the deal's score is not computed, the core has no
    entry point for it), one ``random_deals`` call a deal: a unit is one
    game's deals in classic (its 24 sizes in order), one deal in Japanese
    (a game's share of it set from our own slices, as for the peer)."""

    def __init__(self, rules):
        from joker.bots.core import random_deals

        self.random_deals = random_deals
        if rules.is_japanese:
            self.deals = [rules]
            self.per_game = None
        else:
            self.deals = [one_size(rules, i) for i in range(len(rules.schedule))]
            self.per_game = len(self.deals)

    def whole(self, rng: random.Random) -> tuple[float, int, int]:
        decisions = 0
        for rules in self.deals:
            decisions += self.random_deals(rules, 1, rng.getrandbits(64))[1]
        games = 1 if self.per_game else len(self.deals)
        return games, decisions, len(self.deals)


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


def sample_outcome(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """Pick a chance action by its probability."""
    r = rng.random()
    for action, probability in outcomes:
        r -= probability
        if r < 0:
            return action
    return outcomes[-1][0]


def dealt_oh_hell(game, rng: random.Random):
    """An oh_hell state at its first decision, dealt in Python."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))
    return state


def oh_hell_counts(game) -> tuple[int, int]:
    """(decisions, chance steps) of one oh_hell game: fixed by its size."""
    state = game.new_initial_state()
    decisions = chance = 0
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            chance += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions, chance


class OhHellSchedule:
    """The oh_hell deals that make one of our games, and ways to play them.

    ``deals`` are the games (one per deal of the schedule), ``per_game`` how
    many of our games they make (1 for classic, whose schedule is fixed; for
    Japanese, one deal's share of our mean deals a game, set from our own
    slices once they are measured)."""

    def __init__(self, pyspiel, deals: list, per_game: float | None):
        self.pyspiel = pyspiel
        self.deals = deals
        self.per_game = per_game
        self.counts = [oh_hell_counts(game) for game in deals]
        self.bots = {}
        self.pools: list[list] = []

    def fill_pools(self, rng: random.Random, size: int) -> None:
        self.pools = [[dealt_oh_hell(g, rng) for _ in range(size)] for g in self.deals]

    def _bots(self, players: int) -> list:
        if players not in self.bots:
            self.bots[players] = [
                self.pyspiel.make_uniform_random_bot(p, 1000 + p)
                for p in range(players)
            ]
        return self.bots[players]

    def _result(self, decisions: int, chance: int) -> tuple[float, int, int]:
        # Without ``per_game`` (Japanese) a unit counts its deals; the
        # benchmark divides them by our mean deals a game afterwards.
        games = len(self.deals) / self.per_game if self.per_game else len(self.deals)
        return games, decisions, chance

    def whole_cpp(self, rng: random.Random):
        """``evaluate_bots`` from the initial state: dealing in C++ too."""
        decisions = chance = 0
        for game, (d, c) in zip(self.deals, self.counts, strict=True):
            bots = self._bots(game.num_players())
            self.pyspiel.evaluate_bots(
                game.new_initial_state(), bots, rng.randrange(2**31)
            )
            decisions += d
            chance += c
        return self._result(decisions, chance)

    def dealt_cpp(self, rng: random.Random):
        """``evaluate_bots`` from a pooled dealt state (cloned)."""
        decisions = 0
        for pool, game, (d, _) in zip(self.pools, self.deals, self.counts, strict=True):
            bots = self._bots(game.num_players())
            state = pool[rng.randrange(len(pool))].clone()
            self.pyspiel.evaluate_bots(state, bots, rng.randrange(2**31))
            decisions += d
        return self._result(decisions, 0)

    def whole_python(self, rng: random.Random):
        """A Python loop calling pyspiel for every action, chance sampled in
        Python by its probabilities (the benchmark's peer before)."""
        decisions = chance = 0
        for game in self.deals:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(sample_outcome(state.chance_outcomes(), rng))
                    chance += 1
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions += 1
        return self._result(decisions, chance)

    def dealt_python(self, rng: random.Random):
        decisions = 0
        for pool in self.pools:
            state = pool[rng.randrange(len(pool))].clone()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return self._result(decisions, 0)


def schedule_for(pyspiel, name: str, rules, rng: random.Random) -> OhHellSchedule:
    """The oh_hell deals that stand for one of our ``name`` games."""
    if name == "classic":
        sizes = deal_sizes(rules, rng)
        deals = [oh_hell_deal(pyspiel, rules.players, n) for n in sizes]
        return OhHellSchedule(pyspiel, deals, len(deals))
    return OhHellSchedule(pyspiel, [oh_hell_deal(pyspiel, **JAPANESE_PEER)], None)


def rules_of(name: str):
    profile, options = OUR_GAMES[name]
    return make_rules(profile, options)
