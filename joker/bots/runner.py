"""Play whole games between bots, for tests, benchmarks and practice tables."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol, TypeAlias

from ..actions import Action
from ..game import apply
from ..jsontypes import JsonObject
from ..record import History, record_json
from ..rules import Rules
from ..shuffle import deal_cards
from ..state import DEAL, OVER, State, new_game
from .autopilot import autopilot_action


class Chooser(Protocol):
    """A bot that also takes the deal's actions so far (``IsmctsBot``,
    ``MonteCarloBot``)."""

    def choose(self, state: State, deal_actions: Sequence[Action]) -> Action: ...


# None is the autopilot.
Bot: TypeAlias = Chooser | Callable[[State], Action] | None


class PlayedGame(NamedTuple):
    """A finished game: the final state and its history, one
    ``(Deal, [actions])`` pair per deal, as ``record.replay`` reports it."""

    state: State
    history: History

    def record(self) -> JsonObject:
        """The game record (RECORD.md), which ``record.replay`` reads back."""
        return record_json(self.state.rules, self.state.first_dealer, self.history)


def move_of(bot: Bot, state: State, deal_actions: list[Action]) -> Action:
    """Ask one bot for its move. ``None`` is the autopilot; an object with
    ``choose`` also gets the deal's actions so far; any other callable gets
    the state only."""
    if bot is None:
        return autopilot_action(state)
    if hasattr(bot, "choose"):
        return bot.choose(state, list(deal_actions))
    return bot(state)


def play_game(
    rules: Rules,
    bots_by_seat: Sequence[Bot] | dict[int, Bot],
    rng: random.Random,
    first_dealer: int = 0,
    max_deals: int | None = None,
) -> PlayedGame:
    """Deal with ``rng`` and let the bots play a whole game.

    ``bots_by_seat`` maps each seat (a list or a dict) to a bot: ``None`` for
    the autopilot, a ``MonteCarloBot``, or a callable ``state -> action``.
    ``max_deals`` stops early (the state is then left between deals).
    """
    if not isinstance(bots_by_seat, dict):
        bots_by_seat = dict(enumerate(bots_by_seat))
    state = new_game(rules, first_dealer)
    history: History = []
    while state.phase != OVER:
        if state.phase == DEAL:
            if max_deals is not None and len(history) >= max_deals:
                break
            deal = deal_cards(state, rng)
            actions: list[Action] = []
            history.append((deal, actions))
            state = apply(state, deal)
            continue
        seat = state.turn
        assert seat is not None  # a seat is on turn inside a deal
        action = move_of(bots_by_seat.get(seat), state, actions)
        state = apply(state, action)
        actions.append(action)
    return PlayedGame(state, history)
