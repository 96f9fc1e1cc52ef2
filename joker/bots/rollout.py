"""A fast, mutable copy of one deal's card play, for the bots' rollouts.

The engine's ``State`` is immutable and checks everything, which is right
for real games but slow for thousands of simulated deals. ``DealSim`` plays
the rest of a deal on plain lists with the engine's own trick functions
(``playable_cards``, ``joker_choices``, ``trick_winner``), so its legal moves
and trick winners are the engine's. The tests check it against ``apply``.
A rollout that starts before the bidding is over plays under the bids the
autopilot would make (``all_bids``, ``bids_after``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from ..actions import PlayCard
from ..cards import DECK
from ..state import State
from ..tricks import joker_choices, playable_cards, trick_winner
from .autopilot import choose_bid, choose_play

# Plays of ordinary cards are immutable values: make each one once.
_PLAIN_PLAYS = tuple({card: PlayCard(seat, card) for card in DECK} for seat in range(4))


class DealSim:
    """The card play of one deal, from a fully known (determinized) state."""

    __slots__ = (
        "players",
        "trump",
        "lead_modes",
        "answer_modes",
        "japanese",
        "hands",
        "columns",
        "trick",
        "leader",
        "tricks",
        "done",
        "total",
        "bids",
    )
    players: int
    trump: str
    lead_modes: tuple[str, ...]
    answer_modes: tuple[str, ...]
    japanese: bool
    hands: list[list[str]]
    columns: list[list[tuple[str, str]]]
    trick: list[PlayCard]
    leader: int
    tricks: list[int]
    done: int
    total: int
    bids: list[int | None]

    @classmethod
    def from_state(
        cls,
        state: State,
        trump: str | None = None,
        bids: Sequence[int | None] | None = None,
    ) -> Self:
        """Copy a state's deal; ``trump`` and ``bids`` fill in what is not
        decided yet when a rollout starts before trump or bidding."""
        sim = cls.__new__(cls)
        rules = state.rules
        sim.players = rules.players
        deal_trump = state.trump if trump is None else trump
        assert deal_trump is not None  # a rollout plays under a trump
        sim.trump = deal_trump
        sim.lead_modes = rules.lead_modes
        sim.answer_modes = rules.answer_modes
        sim.japanese = rules.is_japanese
        sim.hands = [list(hand) for hand in state.hands]
        sim.columns = [list(own) for own in state.columns]
        sim.trick = list(state.trick)
        sim.leader = state.leader
        sim.tricks = list(state.tricks)
        sim.done = len(state.trick_winners)
        sim.total = state.cards_each
        sim.bids = list(state.bids if bids is None else bids)
        return sim

    def copy(self) -> DealSim:
        sim = DealSim.__new__(DealSim)
        sim.players = self.players
        sim.trump = self.trump
        sim.lead_modes = self.lead_modes
        sim.answer_modes = self.answer_modes
        sim.japanese = self.japanese
        sim.hands = [list(hand) for hand in self.hands]
        sim.columns = [list(own) for own in self.columns]
        sim.trick = list(self.trick)
        sim.leader = self.leader
        sim.tricks = list(self.tricks)
        sim.done = self.done
        sim.total = self.total
        sim.bids = list(self.bids)
        return sim

    @property
    def finished(self) -> bool:
        return self.done == self.total

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def available(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if self.columns and self.done:
            return hand + [up for _, up in self.columns[seat]]
        return hand

    def legal(self) -> list[PlayCard]:
        """The same actions as the engine's ``legal_actions``."""
        seat = self.turn
        available = self.available(seat)
        plain = _PLAIN_PLAYS[seat]
        actions = [
            plain[card] for card in playable_cards(available, self.trick, self.trump)
        ]
        for card in available:
            if card[0] == "X":  # a joker
                actions += joker_choices(
                    seat, card, not self.trick, self.lead_modes, self.answer_modes
                )
        return actions

    def play(self, action: PlayCard) -> None:
        """Play a legal action (not checked: it comes from ``legal``)."""
        seat, card = action.seat, action.card
        hand = self.hands[seat]
        if card in hand:
            hand.remove(card)
        else:
            own = self.columns[seat]
            index = next(i for i, column in enumerate(own) if column[1] == card)
            hand.append(own.pop(index)[0])
            if len(own) == 1:
                # A player never keeps a single column: the table clears.
                hand.extend(own.pop())
        self.trick.append(action)
        if len(self.trick) == self.players:
            winner = trick_winner(tuple(self.trick), self.trump)
            self.tricks[winner] += 1
            self.done += 1
            self.leader = winner
            self.trick = []

    def autopilot_move(self) -> PlayCard:
        seat = self.turn
        options = self.legal()
        if len(options) == 1:
            return options[0]
        want = self.japanese or self.bids[seat] != self.tricks[seat]
        return choose_play(options, self.trick, self.trump, want)

    def play_out(self) -> None:
        """Finish the deal with the autopilot policy for every seat."""
        while self.done < self.total:
            self.play(self.autopilot_move())


def bids_after(deal: State, seat: int, bid: int) -> list[int | None]:
    """The bids once ``seat`` bids ``bid`` and the later seats bid as the
    autopilot would with their (sampled) hands."""
    bids = list(deal.bids)
    bids[seat] = bid
    assert deal.trump is not None  # bids are made under a trump
    return _finish_bidding(deal, bids, seat, deal.trump)


def all_bids(deal: State, trump: str) -> list[int | None]:
    """Every seat's autopilot bid, from the first bidder, under ``trump``."""
    bids: list[int | None] = [None] * deal.players
    first = (deal.dealer + 1) % deal.players
    n = deal.cards_each
    bids[first] = choose_bid(deal.hands[first], trump, n, range(n + 1))
    return _finish_bidding(deal, bids, first, trump)


def _finish_bidding(
    deal: State, bids: list[int | None], seat: int, trump: str
) -> list[int | None]:
    n = deal.cards_each
    while seat != deal.dealer:
        seat = (seat + 1) % deal.players
        allowed: Sequence[int] = range(n + 1)
        if seat == deal.dealer:
            forbidden = n - sum(b for b in bids if b is not None)
            allowed = [b for b in allowed if b != forbidden]
        bids[seat] = choose_bid(deal.hands[seat], trump, n, allowed)
    return bids
