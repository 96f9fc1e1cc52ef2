"""Deal reviews (``joker.review``): blunders are flagged whatever the seed,
forced moves never are, flags hold from one seed to the next, a decision's
review reads nothing the seat could not see, and the hindsight view is the
real deal played out on open cards."""

from __future__ import annotations

import json
import random

import pytest

from joker import Deal, apply, legal_actions, make_rules, new_game
from joker.actions import Action, Bid, PlayCard, action_from_json
from joker.bots import autopilot_action, play_game
from joker.bots.bitsample import DealSampler
from joker.bots.core import Playouts
from joker.bots.ismcts import _distinct_plays
from joker.bots.results import Scorers
from joker.record import record_json
from joker.review import decision as review_module
from joker.review import review_decision, review_game, version
from joker.review.decision import _classes
from joker.review.stats import GRADES, paired, t95
from joker.shuffle import deal_cards
from joker.state import DEAL, OVER, PLAY
from tests.joker.notation import cards
from tests.joker.test_bot_secrecy import DealsTheTrueCards, positions, shuffled
from tests.joker.test_bots import walk

# Small depths keep the file quick; the blunders below are far beyond the
# noise at them.
DEPTH = 300
SEEDS = (1, 2, 3, 4, 5)
FIRST_DEALER = 2  # so that seat 0 bids first and leads in deal 1


def crafted_record(
    hands: tuple[str, str, str, str],
    turned: str,
    chosen: dict[tuple[int, int], Action],
) -> dict:
    """A 4-player record: deal 0 (one card each) played by the autopilot,
    then deal 1 (two cards each) with these hands, the moves in ``chosen``
    (by seat and the number of that seat's move in the deal) and the
    autopilot's elsewhere."""
    rules = make_rules("georgian-club", {})
    state = new_game(rules, FIRST_DEALER)
    history = []
    for deal in (
        deal_cards(state, random.Random(0)),
        Deal(tuple(map(cards, hands)), turned),
    ):
        actions: list[Action] = []
        history.append((deal, actions))
        state = apply(state, deal)
        made: dict[int, int] = {}
        while state.phase not in (DEAL, OVER):
            seat = state.turn
            action = autopilot_action(state)
            if len(history) == 2:
                action = chosen.get((seat, made.get(seat, 0)), action)
                made[seat] = made.get(seat, 0) + 1
            state = apply(state, action)
            actions.append(action)
    return record_json(rules, FIRST_DEALER, history)


# Seat 0 bid 1 and leads with the joker and a small heart; every other
# card is a high heart or a spade (trump). Leading the joker "give" throws
# away the one trick the bid needs.
JOKER_HANDS = ("X1 7H", "AH KS", "KH QS", "QH AS")
JOKER_THROWN = crafted_record(
    JOKER_HANDS,
    "9S",
    {(0, 0): Bid(0, 1), (0, 1): PlayCard(0, "X1", "give", "H")},
)
# Seat 3 bid 0 and plays last to a trick of low hearts with the king and
# the six of hearts: the king takes a trick the six would not.
ZERO_OVERTAKEN = crafted_record(
    ("9H AC", "8H KC", "7H QC", "KH 6H"),
    "7D",
    {
        (0, 0): Bid(0, 1),
        (1, 0): Bid(1, 0),
        (2, 0): Bid(2, 0),
        (3, 0): Bid(3, 0),
        (0, 1): PlayCard(0, "9H"),
        (3, 1): PlayCard(3, "KH"),
    },
)
# Seat 1 follows the ace of clubs with the ten of clubs, holding the nine:
# two cards with nothing between them do the same.
SAME_CARDS = crafted_record(
    ("AC 7S", "9C TC", "KC 8S", "QC 9S"),
    "7D",
    {(0, 1): PlayCard(0, "AC"), (1, 1): PlayCard(1, "TC")},
)


def card_decision(record: dict, seat: int, card: str, seed: int, deals=DEPTH):
    review = review_game(record, seat, deals=deals, seed=seed, only={1}, partial=True)
    (decision,) = [d for d in review.decisions if d.move.get("card") == card]
    return decision


@pytest.mark.parametrize("seed", SEEDS)
def test_throwing_away_the_joker_trick_the_bid_needs_is_a_blunder(seed):
    decision = card_decision(JOKER_THROWN, 0, "X1", seed)
    assert decision.move == {"card": "X1", "mode": "give", "suit": "H"}
    assert decision.best.get("mode") != "give"
    assert decision.grade == "blunder"
    assert decision.low > 200  # the bid's 100 and the hisht's 200 at stake


@pytest.mark.parametrize("seed", SEEDS)
def test_taking_a_trick_a_lower_card_would_not_take_at_bid_zero_is_flagged(seed):
    decision = card_decision(ZERO_OVERTAKEN, 3, "KH", seed)
    assert decision.best == {"card": "6H"}
    assert decision.grade is not None
    assert decision.low > GRADES["points"][-1][1]


def test_the_best_move_is_not_flagged():
    """Leading the small heart and keeping the joker to take the second
    trick (high, which nothing but the other joker beats) is the best
    play: never flagged."""
    record = crafted_record(
        JOKER_HANDS, "9S", {(0, 0): Bid(0, 1), (0, 1): PlayCard(0, "7H")}
    )
    for seed in SEEDS[:3]:
        decision = card_decision(record, 0, "7H", seed)
        assert decision.grade is None
        assert decision.low <= GRADES["points"][-1][1]


def test_forced_moves_are_marked_and_never_flagged():
    decision = card_decision(SAME_CARDS, 1, "TC", seed=1)
    # The nine and the ten of clubs are one choice: choosing either is
    # never a loss.
    assert decision.forced
    assert decision.grade is None and decision.loss == 0
    (alternative,) = decision.alternatives
    assert {alternative.move["card"], *(m["card"] for m in alternative.same)} == {
        "9C",
        "TC",
    }
    # A random player's whole game: one legal choice is always forced.
    rules = make_rules("georgian-club", {})
    pick = random.Random(4)
    game = play_game(
        rules,
        [lambda s: pick.choice(legal_actions(s)), None, None, None],
        random.Random(4),
        max_deals=10,
    )
    review = review_game(game.record(), 0, deals=40, seed=1, partial=True)
    only_one = 0
    for decision in review.decisions:
        if len(decision.alternatives) == 1:
            only_one += 1
            assert decision.forced and decision.grade is None
    assert only_one > 10


def test_equal_plays_are_the_bots_distinct_plays():
    """The review's classes of plays that do the same stand for exactly the
    plays the practice bot compares."""
    rules = make_rules("georgian-club", {})
    checked = 0
    for state, actions, _ in walk(rules, lambda s, a: autopilot_action(s), 3):
        if state.phase != PLAY:
            continue
        legal = legal_actions(state)
        gone = DealSampler(state, actions).gone
        members = _classes(state, legal, gone)
        kept = [a for a in legal if a not in members]
        assert set(kept) == set(_distinct_plays(state, legal, gone))
        checked += len(members)
    assert checked > 20


def test_flags_agree_across_three_seeds():
    rules = make_rules("georgian-club", {})
    pick = random.Random(8)
    game = play_game(
        rules,
        [lambda s: pick.choice(legal_actions(s)), None, None, None],
        random.Random(8),
        max_deals=12,
    )
    reviews = [
        review_game(game.record(), 0, deals=DEPTH, seed=seed, partial=True)
        for seed in (1, 2, 3)
    ]
    grades = [[d.grade for d in review.decisions] for review in reviews]
    assert sum(g is not None for g in grades[0]) >= 5  # a random player errs
    agreeing = sum(len(set(g)) == 1 for g in zip(*grades, strict=True))
    assert agreeing >= 0.9 * len(grades[0])


def reviews_changed(found, seed: int) -> tuple[list[str], int]:
    """The positions where shuffling the hidden cards changed the fair
    review of a move, and how many shuffles were tried."""
    rng = random.Random(seed)
    changed, tried = [], 0
    for n, position in enumerate(found):
        action = legal_actions(position.state)[-1]
        actions = list(position.actions)
        fair = review_decision(position.state, actions, action, 48, n).fair_json()
        for _ in range(2):
            other = shuffled(position, rng)
            if other is None:
                continue
            tried += 1
            again = review_decision(other, actions, action, 48, n).fair_json()
            if again != fair:
                changed.append(str(position))
                break
    return changed, tried


PERMUTED = [("georgian-club", {}), ("georgian-tvaladze", {}), ("japanese", {})]


@pytest.mark.parametrize(("profile", "options"), PERMUTED, ids=str)
def test_a_review_does_not_change_with_the_hidden_cards(profile, options):
    found = positions(profile, options, seed=11)
    changed, tried = reviews_changed(found, seed=11)
    assert tried >= len(found)
    assert changed == []


@pytest.mark.parametrize(("profile", "options"), PERMUTED[::2], ids=str)
def test_a_reviewer_that_reads_the_true_hands_is_caught(profile, options, monkeypatch):
    monkeypatch.setattr(review_module, "DealSampler", DealsTheTrueCards)
    changed, tried = reviews_changed(positions(profile, options, seed=11), seed=11)
    assert tried and changed


def test_hindsight_is_the_real_deal_played_out():
    """Seat 0 leads with the joker and the seven of hearts, two cards
    left, every later card forced: taking leaves seat 0 one trick and the
    ace of spades the other, giving leaves the ace of hearts one."""
    decision = card_decision(JOKER_THROWN, 0, "X1", seed=1)
    by_move = {json.dumps(a.move, sort_keys=True): a for a in decision.alternatives}
    state = lead_state(JOKER_THROWN)
    scale = Scorers(state).scale
    score = Playouts(DealSampler(state, []), 1).score
    take = by_move[
        json.dumps({"card": "X1", "mode": "take", "suit": "H"}, sort_keys=True)
    ]
    give = by_move[
        json.dumps({"card": "X1", "mode": "give", "suit": "H"}, sort_keys=True)
    ]
    assert take.hindsight == pytest.approx(scale * score(state.bids, [1, 0, 0, 1])[0])
    assert give.hindsight == pytest.approx(scale * score(state.bids, [0, 1, 0, 1])[0])
    best = by_move[json.dumps(decision.hindsight_best, sort_keys=True)]
    assert best.hindsight == max(a.hindsight for a in decision.alternatives)
    assert decision.hindsight_loss == pytest.approx(best.hindsight - give.hindsight)
    # Before the last four tricks there is no hindsight.
    review = review_game(
        play_game(
            make_rules("georgian-club", {}), [None] * 4, random.Random(2)
        ).record(),
        0,
        deals=8,
        only={8},
    )
    assert any(d.kind == "card" and not d.forced for d in review.decisions)
    for d in review.decisions:
        if d.kind != "card" or d.trick < 9 - 4:
            assert d.hindsight_best is None
            assert all(a.hindsight is None for a in d.alternatives)
        elif not d.forced:
            assert d.hindsight_best is not None


def lead_state(record: dict):
    """The state of deal 1 where seat 0 leads the first trick."""
    rules = make_rules("georgian-club", {})
    state = new_game(rules, FIRST_DEALER)
    for number, deal in enumerate(record["deals"]):
        state = apply(state, Deal(tuple(map(tuple, deal["hands"])), deal.get("turned")))
        for data in deal["actions"]:
            if number == 1 and state.phase == PLAY:
                return state
            state = apply(state, action_from_json(data))
    raise AssertionError("no lead in deal 1")


def test_a_review_is_json_reproducible_and_versioned():
    rules = make_rules("japanese", {})
    game = play_game(rules, [None, None], random.Random(6), max_deals=2)
    with pytest.raises(ValueError, match="not over"):
        review_game(game.record(), 0, deals=20)
    first, again, other = (
        review_game(game.record(), 0, deals=20, seed=seed, partial=True).to_json()
        for seed in (1, 1, 2)
    )
    assert json.loads(json.dumps(first)) == first == again
    assert first != other
    assert first["version"] == version() and first["version"].startswith("1-")
    assert first["unit"] == "tricks"
    # Seat 0 names trump in the first deal, seat 1 in the second.
    kinds = {(d["deal"], d["kind"]) for d in first["decisions"]}
    assert (0, "trump") in kinds and (1, "trump") not in kinds
    for decision in first["decisions"]:
        for alternative in decision["alternatives"]:
            value = alternative["value"]
            assert decision["forced"] or 0 <= value <= 18
    summary = first["summary"]
    assert summary["decisions"] == len(first["decisions"])
    assert sum(d["decisions"] for d in first["per_deal"]) == summary["decisions"]
    assert 0 < summary["accuracy"] <= 100


def test_the_interval_is_students():
    # The mean of 1, 2, 3, 4 is 2.5 with a standard error of 0.645; t with
    # 3 degrees of freedom is 3.182.
    mean, low, high = paired([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert (low, high) == pytest.approx((2.5 - 2.0540, 2.5 + 2.0540), abs=1e-3)
    assert t95(1000) == pytest.approx(1.9623, abs=1e-4)
    assert paired([5.0] * 10) == (5.0, 5.0, 5.0)
