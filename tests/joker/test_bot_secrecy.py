"""The practice bot plays on what its seat may see, and on nothing else.

The permutation test: from seeded positions of every profile (naming trump,
bids made, mid-play; Japanese Joker with its columns), the hidden cards of
the deal (the other seats' hands, the face-down column cards, the part of
the trump namer's hand not yet seen) are shuffled among their places, each
place keeping its size. A shuffle is kept only when the deal's public
actions replay legally from it (so the voids shown and the cards played
still fit) and the seat's view is unchanged; then the bot, with the same
seed and the same number of sampled deals, must choose the same move.

The test proves it can fail: a sampler that deals the true hidden cards
instead of drawing them is caught by the same check. It reaches the bot
only through its public interface (``IsmctsBot(...).choose``) and the
sampler class the bot module uses (``joker.bots.ismcts.DealSampler``), the
one seam the leaky sampler needs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from joker import Deal, EngineError, apply, legal_actions, make_rules, new_game
from joker.actions import PlayCard
from joker.bots import IsmctsBot, autopilot_action
from joker.bots import ismcts as bot_module
from joker.bots.bits import bit_of
from joker.cards import DECK
from joker.shuffle import deal_cards
from joker.state import BID, DEAL, OVER, PLAY, TRUMP
from joker.view import view
from tests.joker.test_bots import PROFILE_IDS, PROFILES

# Positions of each kind taken from a game, shuffles tried on each, and
# the shuffles drawn to find one the deal's public actions allow.
PER_KIND = 3
SHUFFLES = 2
TRIES = 300
# Deals sampled per move: enough for the bot to weigh its choices, few
# enough for the test to be quick; a fixed count makes the move repeatable.
ITERATIONS = 24
CARD_CODES = frozenset(DECK)


@dataclass(frozen=True)
class Position:
    kind: str
    before_deal: object  # the state the deal was dealt to
    deal: Deal
    actions: tuple  # the deal's public actions so far
    state: object

    def __str__(self) -> str:
        return (
            f"{self.kind} at deal {self.state.deal_index + 1}, "
            f"{len(self.actions)} actions in"
        )


def kind_of(state) -> str | None:
    if state.phase == TRUMP:
        return "naming trump"
    if state.phase == BID and any(bid is not None for bid in state.bids):
        return "bids made"
    if state.phase == PLAY and (state.trick or state.trick_winners):
        return "mid-play"
    return None


def positions(profile: str, options: dict, seed: int) -> list[Position]:
    """``PER_KIND`` positions of each kind, each with a choice to make and
    from a deal of its own, drawn from a seeded game the autopilot plays."""
    rng = random.Random(seed)
    state = new_game(make_rules(profile, options), 0)
    found: dict[str, dict[int, list[Position]]] = {}
    before = deal = actions = None
    while state.phase != OVER:
        if state.phase == DEAL:
            before, deal = state, deal_cards(state, rng)
            state, actions = apply(state, deal), []
            continue
        kind = kind_of(state)
        if kind is not None and len(legal_actions(state)) > 1:
            position = Position(kind, before, deal, tuple(actions), state)
            found.setdefault(kind, {}).setdefault(state.deal_index, []).append(position)
        action = autopilot_action(state)
        state = apply(state, action)
        actions.append(action)
    chosen = []
    for by_deal in found.values():
        for index in rng.sample(sorted(by_deal), min(PER_KIND, len(by_deal))):
            chosen.append(rng.choice(by_deal[index]))
    return chosen


def cards_seen(position: Position) -> set[str]:
    """Every card the seat to move has seen in this deal: those its view
    shows, and those played before (``view`` shows the last trick only)."""
    state = position.state
    shown = set()

    def collect(value) -> None:
        if isinstance(value, str) and value in CARD_CODES:
            shown.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                collect(item)
        elif isinstance(value, list | tuple):
            for item in value:
                collect(item)

    collect(view(state, state.turn))
    played = {a.card for a in position.actions if isinstance(a, PlayCard)}
    return shown | played


def shuffled(position: Position, rng: random.Random):
    """The position with its hidden cards shuffled among their places, as
    the deal's public actions allow and the seat sees it unchanged; None
    when no such shuffle is found, or when there is only one."""
    state, deal = position.state, position.deal
    seen = cards_seen(position)
    hands = [list(hand) for hand in deal.hands]
    columns = [[list(pair) for pair in own] for own in deal.columns]
    # Every place a hidden card was dealt to.
    places = [
        (hand, i) for hand in hands for i, card in enumerate(hand) if card not in seen
    ]
    places += [
        (pair, i)
        for own in columns
        for pair in own
        for i, card in enumerate(pair)
        if card not in seen
    ]
    hidden = [place[i] for place, i in places]
    for _ in range(TRIES):
        cards = hidden[:]
        rng.shuffle(cards)
        for (place, i), card in zip(places, cards, strict=True):
            place[i] = card
        other = Deal(
            tuple(map(tuple, hands)),
            deal.turned,
            tuple(tuple(map(tuple, own)) for own in columns),
        )
        try:
            moved = apply(position.before_deal, other)
            for action in position.actions:
                moved = apply(moved, action)
        except EngineError:
            continue  # a void shown, or a card played, does not fit
        if (moved.hands, moved.columns) == (state.hands, state.columns):
            continue  # every hidden card back where it was
        assert view(moved, state.turn) == view(state, state.turn)
        return moved
    return None


def bots_move(state, actions, seed: int):
    bot = IsmctsBot(budget=60, max_iterations=ITERATIONS, rng=random.Random(seed))
    return bot.choose(state, list(actions))


def moves_changed(found: list[Position], seed: int) -> tuple[list[str], int]:
    """The positions where a shuffle of the hidden cards changed the bot's
    move, and how many shuffles were tried."""
    rng = random.Random(seed)
    changed, tried = [], 0
    for n, position in enumerate(found):
        move = bots_move(position.state, position.actions, seed=n)
        for _ in range(SHUFFLES):
            other = shuffled(position, rng)
            if other is None:
                continue
            tried += 1
            if bots_move(other, position.actions, seed=n) != move:
                changed.append(str(position))
                break
    return changed, tried


class DealsTheTrueCards(bot_module.DealSampler):
    """A leaky sampler: every hidden card may go only to the place that
    truly holds it (or stay undealt), as if the seat could see the others'
    cards. The compiled playouts deal from these limits as they deal from
    the voids a deal has shown."""

    def __init__(self, state, deal_actions=None):
        super().__init__(state, deal_actions)
        truly = {}
        for i, (kind, s, _) in enumerate(self.slots):
            if kind == "hand":
                cards = state.hands[s]
            elif kind == "down":
                cards = [down for down, _ in state.columns[s]]
            else:
                cards = [card for pair in state.columns[s] for card in pair]
            truly.update((bit_of(card), i) for card in cards)
        limits = [(bit, (truly[bit],) if bit in truly else ()) for bit in self.pool]
        # Undealt cards first: a group whose first card fits every place is
        # dealt as if unlimited.
        self.groups = [sorted(limits, key=lambda limit: len(limit[1]))]


@pytest.mark.parametrize(("profile", "options"), PROFILES, ids=PROFILE_IDS)
def test_the_bots_move_does_not_change_with_the_hidden_cards(profile, options):
    found = positions(profile, options, seed=11)
    kinds = {position.kind for position in found}
    japanese = profile == "japanese"
    assert {"mid-play"} | (set() if japanese else {"bids made"}) <= kinds
    if japanese:  # with the columns, face down and up
        assert "naming trump" in kinds
        assert all(position.state.columns for position in found)
    changed, tried = moves_changed(found, seed=11)
    assert tried >= len(found)
    assert changed == []


@pytest.mark.parametrize(
    ("profile", "options"), [PROFILES[0], PROFILES[3], PROFILES[6]], ids=str
)
def test_a_sampler_that_deals_the_true_cards_is_caught(profile, options, monkeypatch):
    monkeypatch.setattr(bot_module, "DealSampler", DealsTheTrueCards)
    changed, tried = moves_changed(positions(profile, options, seed=11), seed=11)
    assert tried and changed
