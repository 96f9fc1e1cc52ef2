"""OpenSpiel's ``ISMCTSBot`` made as strong a peer as it fairly can be, for
``bot_strength.py``. Needs the optional ``bench`` group (``open_spiel``).

What it is given beyond ``openspiel_joker.CountedISMCTSBot`` with random
playouts:

* **our playout policy on our compiled core**: the rest of the deal played
  out in C by the autopilot (``CoreDeal.play_out`` of ``joker.bots.core``,
  the core our bot's playouts run on), the bids still to come by the
  autopilot's heuristic in C and trump by it on the engine
  (``openspiel_joker.CoreRollout("autopilot")``): a playout costs the peer
  what it costs ours, so equal CPU compares the searches;
* **a bid-aware sampler, built once a move**: the deals it searches are
  drawn from what the seat knows (``Knowledge``), built once for the move
  rather than for every simulation, and, once bids are made, preferring the
  deals whose bids fit their bidders' hands by the same test our
  ``DealSampler`` makes (the autopilot's estimate of each bidder's hand,
  ``joker.bots.core.estimate_tricks``, within a trick or so of its bid, up
  to ``INFER_TRIES`` draws);
* **its own seed for everything**: the deals it samples come from a
  generator seeded with the bot (OpenSpiel's default resampler draws its
  seed from an unseeded ``UniformProbabilitySampler``, so a game could not
  be replayed);
* **tuned search parameters**: ``uct_c`` and the final policy from a sweep
  (``bot_strength.py --sweep``; the values in ``TUNED``, the sweep's
  figures in benchmarks/README.md).
"""

from __future__ import annotations

import math
import random

from openspiel_joker import CountedISMCTSBot, JokerState, pyspiel

from joker.bots.bits import bit_of, mask_of, trump_index
from joker.bots.core import estimate_tricks
from joker.bots.montecarlo import Knowledge, _earlier_plays
from joker.state import BID

if pyspiel is not None:
    from open_spiel.python.algorithms.ismcts import ISMCTSFinalPolicyType

    FINAL_POLICIES = {
        "visits": ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        "value": ISMCTSFinalPolicyType.MAX_VALUE,
    }

# The bid fit, as our ``DealSampler`` judges it: the spread of a bidder's
# estimated tricks about its bid, and the draws tried for a deal that fits.
BID_SPREAD = 1.0
INFER_TRIES = 8

# From the sweep recorded in benchmarks/README.md (bot_strength.py --sweep).
TUNED = {"uct_c": 1.0, "final": "value"}


class BidAwareSampler:
    """Engine states of the current deal, every card the seat to move cannot
    see dealt again; with bids made, deals that fit them preferred."""

    def __init__(self, state, deal_actions):
        self.knowledge = Knowledge(state, deal_actions)
        self.bidders = _bidders(state, deal_actions)
        self.trump = -1 if state.trump is None else trump_index(state.trump)
        self.cards = state.cards_each

    def sample(self, rng: random.Random):
        if not self.bidders:
            return self.knowledge.sample(rng)
        best, best_misfit = None, math.inf
        for _ in range(INFER_TRIES):
            sample = self.knowledge.sample(rng)
            misfit = 0.0
            for seat, bid, played in self.bidders:
                hand = mask_of(sample.hands[seat]) | played
                misfit += (estimate_tricks(hand, self.trump, self.cards) - bid) ** 2
            misfit /= BID_SPREAD**2
            if rng.random() < math.exp(-misfit / 2):
                return sample
            if misfit < best_misfit:
                best, best_misfit = sample, misfit
        return best


def _bidders(state, deal_actions) -> list:
    """(seat, bid, cards it has played) of the other seats that bid, as
    ``DealSampler`` lists them."""
    if state.rules.is_japanese or state.trump is None:
        return []
    plays = _earlier_plays(state, deal_actions)
    if plays is None and state.phase != BID:
        return []
    played = [0] * state.players
    for play in (plays or []) + list(state.trick):
        played[play.seat] |= 1 << bit_of(play.card)
    return [
        (s, bid, played[s])
        for s, bid in enumerate(state.bids)
        if bid is not None and s != state.turn
    ]


class TunedISMCTSBot(CountedISMCTSBot):
    """``CountedISMCTSBot`` with our playouts, the bid-aware sampler built
    once a move, its own seed and tuned parameters."""

    def __init__(
        self,
        simulations: int,
        seed: int,
        uct_c: float = TUNED["uct_c"],
        final: str = TUNED["final"],
        policy: str = "autopilot",
    ):
        super().__init__(simulations, seed, policy)
        self._uct_c = uct_c
        self._final_policy_type = FINAL_POLICIES[final]
        self.rng = random.Random(seed ^ 0x5EED)
        self.root = None
        self.sampler = None
        self.set_resampler(self._resample)

    def _resample(self, state: JokerState, player: int) -> JokerState:
        # ISMCTS resamples the root it was given once per simulation: the
        # sampler is built for the first and kept for the rest.
        assert state.engine.turn == player, "resampling is for the seat to move"
        if state is not self.root:
            self.root = state
            self.sampler = BidAwareSampler(state.engine, state.deal_actions)
        sample = self.sampler.sample(self.rng)
        return JokerState(
            state._game, sample, state.deal_actions, (), state.scorers, state.horizon
        )
