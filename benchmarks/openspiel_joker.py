"""Our engine as an OpenSpiel Python game, so that OpenSpiel's own bots play
Joker by our rules. Needs the optional ``bench`` group (``open_spiel``).

Two games are registered: ``python_pulka_joker`` (georgian-club, classic
schedule, 4 players) and ``python_pulka_japanese`` (Japanese Joker, target
21). Each wraps an engine ``State``; every move goes through ``apply``, so an
illegal action raises the engine's own error.

Actions are numbered: 0-4 name trump (``S H D C none``), 5-14 bid 0 to 9,
15-48 play an ordinary card (its place in ``DECK``), 49-70 play a joker in
one of its modes (11 per joker: take and give in each suit, nominal, high,
low). A chance outcome deals the next card of the shuffled deck (its place
in ``DECK``), one card at a time, in the order ``shuffle.deal_cards`` takes
them; the deal is built from that order exactly as ``deal_cards`` builds it.

``horizon="deal"`` ends the game when the current deal is finished, with
each seat's value of the deal as the return (the same value ``IsmctsBot``
plays for); ``JokerState.from_engine`` starts such a state at any decision
of a real game, which is how the benchmarks let OpenSpiel's ``ISMCTSBot``
choose moves. ``resample_from_infostate`` deals every card the player cannot
see again, consistently with what it has seen (``Knowledge``).

Run it to check that OpenSpiel's ISMCTSBot plays only legal moves::

    python benchmarks/openspiel_joker.py [--games N] [--simulations K]

It exits 1 (loudly) when an illegal move is chosen, and 2 when open_spiel is
not installed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError:  # the optional bench group is not installed
    pyspiel = None

from core_deal import core_deal  # noqa: E402

from joker import apply, legal_actions, make_rules, new_game  # noqa: E402
from joker.actions import Bid, NameTrump, PlayCard  # noqa: E402
from joker.bots.autopilot import autopilot_action  # noqa: E402
from joker.bots.montecarlo import Knowledge  # noqa: E402
from joker.bots.results import Scorers  # noqa: E402
from joker.cards import DECK, SUITS, TRUMP_CHOICES, sorted_cards  # noqa: E402
from joker.shuffle import deal_from_deck  # noqa: E402
from joker.state import BID, DEAL, OVER, TRUMP  # noqa: E402

MIN_SIMULATIONS = 2
INSTALL_HINT = "install the optional group: pip install -e '.[bench]'"

BID_BASE = len(TRUMP_CHOICES)
CARD_BASE = BID_BASE + 10
JOKER_BASE = CARD_BASE + len(DECK) - 2
JOKER_VARIANTS = (
    *(("take", suit) for suit in SUITS),
    *(("give", suit) for suit in SUITS),
    ("nominal", None),
    ("high", None),
    ("low", None),
)
NUM_ACTIONS = JOKER_BASE + 2 * len(JOKER_VARIANTS)
DECK_INDEX = {card: index for index, card in enumerate(DECK)}

GAMES = {
    "python_pulka_joker": ("georgian-club", {}),
    "python_pulka_japanese": ("japanese", {"target": 21}),
}


def action_id(action) -> int:
    if isinstance(action, NameTrump):
        return TRUMP_CHOICES.index(action.trump)
    if isinstance(action, Bid):
        return BID_BASE + action.bid
    if action.mode is None:
        return CARD_BASE + DECK_INDEX[action.card]
    joker = 0 if action.card == "X1" else 1
    variant = JOKER_VARIANTS.index((action.mode, action.suit))
    return JOKER_BASE + joker * len(JOKER_VARIANTS) + variant


def engine_action(state, number: int):
    """The engine action numbered ``number`` for the seat to move."""
    seat = state.turn
    if number < BID_BASE:
        return NameTrump(seat, TRUMP_CHOICES[number])
    if number < CARD_BASE:
        return Bid(seat, number - BID_BASE)
    if number < JOKER_BASE:
        return PlayCard(seat, DECK[number - CARD_BASE])
    joker, variant = divmod(number - JOKER_BASE, len(JOKER_VARIANTS))
    mode, suit = JOKER_VARIANTS[variant]
    return PlayCard(seat, ("X1", "X2")[joker], mode, suit)


def cards_to_deal(state) -> int:
    """How many cards of the shuffled deck ``deal_cards`` uses for the next deal."""
    rules = state.rules
    if rules.is_japanese:
        return len(DECK)
    n = state.cards_each
    turned_from_deck = not rules.trump_is_named(state.deal_index) and n < 9
    return 4 * n + turned_from_deck


if pyspiel is not None:

    def _game_type(short_name: str, players: int):
        return pyspiel.GameType(
            short_name=short_name,
            long_name=f"Pulka {short_name}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=players,
            min_num_players=players,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=False,
            provides_observation_tensor=False,
            parameter_specification={"horizon": "game"},
        )

    class JokerGame(pyspiel.Game):
        """One of our profiles as an OpenSpiel game."""

        def __init__(self, params=None, short_name="python_pulka_joker"):
            profile, options = GAMES[short_name]
            rules = make_rules(profile, options)
            players = rules.players
            params = dict(params or {})
            info = pyspiel.GameInfo(
                num_distinct_actions=NUM_ACTIONS,
                max_chance_outcomes=len(DECK),
                num_players=players,
                min_utility=-10.0,
                max_utility=10.0,
                max_game_length=2000,
            )
            super().__init__(_game_type(short_name, players), info, params)

        def new_initial_state(self):
            profile, options = GAMES[self.get_type().short_name]
            return JokerState(self, new_game(make_rules(profile, options), 0))

        def make_py_observer(self, iig_obs_type=None, params=None):
            return JokerObserver()

    class JapaneseGame(JokerGame):
        def __init__(self, params=None):
            super().__init__(params, "python_pulka_japanese")

    class JokerState(pyspiel.State):
        """An engine state, the shuffled cards still being dealt, and the
        deal's actions so far (public, and needed for resampling)."""

        def __init__(
            self, game, state, deal_actions=(), order=(), scorers=None, horizon=None
        ):
            super().__init__(game)
            self._game = game
            # Read once: attributes set on a Python game object do not
            # survive pyspiel handing the game back.
            self.horizon = horizon or game.get_parameters()["horizon"]
            self.engine = state
            self.deal_actions = list(deal_actions)
            self.order = list(order)  # cards of the next deal dealt so far
            # The seats' values of the deal being played; None before the
            # first deal of a fresh game.
            self.scorers = scorers

        @classmethod
        def from_engine(cls, game, state, deal_actions):
            """A state at a decision of a real game, the horizon one deal."""
            return cls(game, state, deal_actions, (), Scorers(state))

        def __deepcopy__(self, memo):
            # The engine state is an immutable value: clones share it.
            return JokerState(
                self._game,
                self.engine,
                self.deal_actions,
                self.order,
                self.scorers,
                self.horizon,
            )

        def _deal_over(self) -> bool:
            return self.engine.phase in (DEAL, OVER) and self.scorers is not None

        def current_player(self):
            state = self.engine
            if state.phase == OVER or (self.horizon == "deal" and self._deal_over()):
                return pyspiel.PlayerId.TERMINAL
            if state.phase == DEAL:
                return pyspiel.PlayerId.CHANCE
            return state.turn

        def _legal_actions(self, player):
            return sorted(action_id(a) for a in legal_actions(self.engine))

        def chance_outcomes(self):
            dealt = set(self.order)
            left = [i for i, card in enumerate(DECK) if card not in dealt]
            p = 1.0 / len(left)
            return [(i, p) for i in left]

        def _apply_action(self, number):
            state = self.engine
            if state.phase == DEAL:
                self.order.append(DECK[number])
                if len(self.order) == cards_to_deal(state):
                    rest = [c for c in DECK if c not in set(self.order)]
                    deal = deal_from_deck(state, self.order + rest)
                    self.engine = apply(state, deal)
                    self.order = []
                    self.deal_actions = []
                    self.scorers = Scorers(self.engine)
                return
            action = engine_action(state, number)
            self.engine = apply(state, action)
            self.deal_actions.append(action)

        def _action_to_string(self, player, number):
            if player == pyspiel.PlayerId.CHANCE:
                return f"deal {DECK[number]}"
            return repr(engine_action(self.engine, number))

        def is_terminal(self):
            return self.current_player() == pyspiel.PlayerId.TERMINAL

        def returns(self):
            state = self.engine
            players = state.players
            if not self.is_terminal():
                return [0.0] * players
            if state.phase == OVER and self.horizon == "game":
                mean = sum(state.totals) / players
                return [(total - mean) / 1000 for total in state.totals]
            result = state.deals[-1]
            return self.scorers(SimpleNamespace(bids=result.bids, tricks=result.tricks))

        def resample_from_infostate(self, player_id, probability_sampler):
            """The same information state for ``player_id``, every card it
            cannot see dealt again consistently with what it has seen."""
            state = self.engine
            assert state.turn == player_id, "resampling is for the seat to move"
            seed = int(probability_sampler() * 2**31)
            sample = Knowledge(state, self.deal_actions).sample(random.Random(seed))
            return JokerState(
                self._game, sample, self.deal_actions, (), self.scorers, self.horizon
            )

        def __str__(self):
            return str(self.engine)

    class JokerObserver:
        """The information state string: what ``view`` lets a seat see, and
        the deal's public actions in order."""

        def __init__(self):
            self.tensor = np.zeros(0, np.float32)
            self.dict = {}

        def set_from(self, state, player):
            pass

        def string_from(self, state, player):
            engine = state.engine
            if engine.phase in (DEAL, OVER):
                own = ()
            elif engine.phase == TRUMP and not (
                engine.rules.is_japanese or player == engine.turn
            ):
                own = ()
            elif engine.phase == TRUMP:
                own = engine.hands[player][:3]
            else:
                own = engine.hands[player]
            ups = [[up for _, up in cols] for cols in engine.columns]
            if engine.phase == TRUMP:
                ups = []
            history = ",".join(str(action_id(a)) for a in state.deal_actions)
            return (
                f"p{player} d{engine.deal_index} {engine.phase} t{engine.trump} "
                f"u{engine.turned} h{' '.join(sorted_cards(own))} c{ups} "
                f"a{history} s{list(engine.totals)}"
            )

    pyspiel.register_game(_game_type("python_pulka_joker", 4), JokerGame)
    pyspiel.register_game(_game_type("python_pulka_japanese", 2), JapaneseGame)

    class TimedISMCTSBot(ismcts.ISMCTSBot):
        """OpenSpiel's ``ISMCTSBot`` with a thinking time instead of a count
        of simulations: its own ``run_search`` loop, stopped by a deadline
        (the count stays as a cap)."""

        def __init__(
            self,
            game,
            budget: float,
            seed: int,
            uct_c: float = 2.0,
            timer=time.perf_counter,
        ):
            rng = np.random.RandomState(seed)
            evaluator = mcts.RandomRolloutEvaluator(1, rng)
            super().__init__(game, evaluator, uct_c, 10**9, random_state=rng)
            self.budget = budget
            self.timer = timer
            self.thinking: list[float] = []
            self.simulations: list[int] = []

        def run_search(self, state):
            start = self.timer()
            self.reset()
            legal = state.legal_actions()
            if len(legal) == 1:
                return [(legal[0], 1.0)]
            self._root_node = self.create_new_node(state)
            key = self.get_state_key(state)
            count, slowest, last = 0, 0.0, start
            while last + 2 * slowest + 0.002 < start + self.budget:
                sampled = self.sample_root_state(state)
                assert key == self.get_state_key(sampled)
                self.run_simulation(sampled)
                now = self.timer()
                slowest, last = max(slowest, now - last), now
                count += 1
            self.simulations.append(count)
            if self._root_node.total_visits <= 0:
                return [(legal[0], 1.0)]
            return self.get_final_policy(state, self._root_node)

        def choose(self, state, deal_actions):
            """Our bots' interface: the engine action for ``state.turn``."""
            start = self.timer()
            game = joker_game(state.rules, horizon="deal")
            spiel_state = JokerState.from_engine(game, state, deal_actions)
            number = self.step(spiel_state)
            self.thinking.append(self.timer() - start)
            return engine_action(state, number)

    class CoreRollout:
        """An evaluator for ``ISMCTSBot`` that plays the rest of the deal out
        on the compiled core our bot's playouts run on (``CoreDeal``, made
        from the leaf's engine state by ``core_deal``), instead of through
        this wrapper's engine states: the same playout speed as ours, so
        that equal CPU compares the searches, not the harnesses.
        ``policy="random"`` plays random legal moves, as OpenSpiel's
        ``RandomRolloutEvaluator`` does; ``"autopilot"`` plays the policy of
        our bot's playouts in C (``CoreDeal.play_out``). A leaf before the
        card play names trump on the engine (by the policy) and, with the
        autopilot, makes the bids still to come in C as our playouts do."""

        def __init__(self, policy: str, rng: random.Random):
            if policy not in ("random", "autopilot"):
                raise ValueError(f"unknown playout policy {policy!r}")
            self.autopilot = policy == "autopilot"
            self.rng = rng

        def prior(self, state):
            legal = state.legal_actions()
            return [(action, 1.0 / len(legal)) for action in legal]

        def evaluate(self, state):
            engine, rng = state.engine, self.rng
            if not self.autopilot:
                while engine.phase in (TRUMP, BID):
                    engine = apply(engine, rng.choice(legal_actions(engine)))
                sim = core_deal(engine)
                while not sim.finished:
                    sim.play(rng.choice(sim.legal()))
                return np.array(state.scorers(sim))
            if engine.phase == TRUMP:
                engine = apply(engine, autopilot_action(engine))
            if engine.phase == BID:
                sim = core_deal(engine)
                made = [s for s, bid in enumerate(engine.bids) if bid is not None]
                if made:
                    last = (engine.turn - 1) % engine.players
                    sim.bids_after(engine.bids, last, engine.bids[last], engine.dealer)
                else:
                    sim.all_bids(engine.dealer)
            else:
                sim = core_deal(engine)
            sim.play_out()
            return np.array(state.scorers(sim))

    class CountedISMCTSBot(ismcts.ISMCTSBot):
        """OpenSpiel's ``ISMCTSBot`` with a fixed number of simulations a
        move and playouts on the compiled core (``CoreRollout``), behind our
        bots' interface. ``simulations`` may be changed between moves."""

        def __init__(self, simulations: int, seed: int, policy: str = "random"):
            rng = np.random.RandomState(seed)
            evaluator = CoreRollout(policy, random.Random(seed))
            # The game is read from each state; ISMCTSBot keeps it unused.
            super().__init__(None, evaluator, 2.0, 0, random_state=rng)
            self.simulations = simulations

        @property
        def simulations(self) -> int:
            return self._max_simulations

        @simulations.setter
        def simulations(self, count: int) -> None:
            # The first simulation only evaluates the root: a move needs two.
            self._max_simulations = max(MIN_SIMULATIONS, int(count))

        def choose(self, state, deal_actions):
            """The engine action for ``state.turn``."""
            game = joker_game(state.rules, horizon="deal")
            spiel_state = JokerState.from_engine(game, state, deal_actions)
            return engine_action(state, int(self.step(spiel_state)))


_GAMES_CACHE: dict = {}


def joker_game(rules, horizon="game"):
    """The registered OpenSpiel game for ``rules`` (classic or Japanese)."""
    name = "python_pulka_japanese" if rules.is_japanese else "python_pulka_joker"
    key = (name, horizon)
    if key not in _GAMES_CACHE:
        _GAMES_CACHE[key] = pyspiel.load_game(name, {"horizon": horizon})
    return _GAMES_CACHE[key]


def check_legal_play(games: int, budget: float, seed: int) -> int:
    """OpenSpiel's ISMCTSBot plays ``games`` seeded deals of each game against
    itself through our rules; every move is checked against the engine."""
    from joker.bots import play_game

    illegal = moves = 0
    for profile, options in GAMES.values():
        rules = make_rules(profile, options)
        for index in range(games):
            bots = []
            for s in range(rules.players):
                bot = TimedISMCTSBot(
                    joker_game(rules, "deal"), budget, seed * 100 + index * 4 + s
                )
                bots.append(_Checked(bot))
            play_game(rules, bots, random.Random(seed * 1000 + index), max_deals=2)
            illegal += sum(bot.illegal for bot in bots)
            moves += sum(bot.moves for bot in bots)
        print(f"{profile}: {games} games of 2 deals, OpenSpiel ISMCTSBot moves checked")
    print(f"{moves} moves, {illegal} illegal")
    return illegal


class _Checked:
    def __init__(self, bot):
        self.bot = bot
        self.moves = self.illegal = 0

    def choose(self, state, deal_actions):
        action = self.bot.choose(state, deal_actions)
        self.moves += 1
        if action not in legal_actions(state):
            self.illegal += 1
            print(f"ILLEGAL: {action!r} in phase {state.phase}", file=sys.stderr)
            return legal_actions(state)[0]
        return action


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--budget", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if pyspiel is None:
        print(f"open_spiel is NOT installed: {INSTALL_HINT}", file=sys.stderr)
        return 2
    illegal = check_legal_play(args.games, args.budget, args.seed)
    if illegal:
        print(f"FAILED: OpenSpiel's ISMCTSBot made {illegal} illegal moves")
        return 1
    print("OK: OpenSpiel's ISMCTSBot played only legal moves through our rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
