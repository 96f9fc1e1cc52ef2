"""A client that applies each step's events and position has the view.

The live table sends a seat, after each step, the step's public events and
the seat's ``position``; ``follow`` is what a client does with them. Over
whole random games of every profile, for every seat and the spectators,
following gives exactly what ``view`` gives. The same steps, written out,
hold the page's script to the same (``test_the_page_follows_as_the_engine``).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from joker import apply, legal_actions, make_rules, new_game
from joker.actions import Resign
from joker.events import describe
from joker.follow import follow
from joker.shuffle import deal_cards
from joker.state import DEAL
from joker.view import position, view

SETUPS = [
    ("georgian-club", None),
    ("georgian-club", {"schedule": "nines", "pairs": True}),
    ("georgian-tvaladze", None),
    ("live-games", {"scoring": "home-bid"}),
    ("japanese", None),
]
FOLLOWER = Path(__file__).resolve().parents[1] / "js" / "follow_check.mjs"


def steps_of_a_game(profile, options, seed):
    """(state before, public steps, state after) for each live step of a
    random game: a step is one action and, when it ends a deal, the next
    deal dealt with it. Now and then a seat resigns."""
    rng = random.Random(seed)
    rules = make_rules(profile, options)
    state = new_game(rules, rng.randrange(rules.players))
    version = 0
    while not state.is_over:
        before, steps = state, []
        if state.phase != DEAL:
            seats = [s for s in range(rules.players) if s not in state.left]
            if rng.random() < 0.004 and len(seats) > 1:
                action = Resign(rng.choice(seats))
            else:
                action = rng.choice(legal_actions(state))
            after = apply(state, action)
            version += 1
            steps.append({"version": version, "events": describe(state, action, after)})
            state = after
        if state.phase == DEAL:
            deal = deal_cards(state, rng)
            after = apply(state, deal)
            version += 1
            steps.append({"version": version, "events": describe(state, deal, after)})
            state = after
        yield before, steps, state


def audiences(state):
    return [*range(state.rules.players), None]


def as_json(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize(("profile", "options"), SETUPS)
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.slow
def test_following_the_steps_gives_the_view(profile, options, seed):
    followed = 0
    for before, steps, after in steps_of_a_game(profile, options, seed):
        for audience in audiences(after):
            told = as_json(position(after, audience))
            kept = follow(as_json(view(before, audience)), as_json(steps), told)
            assert kept == as_json(view(after, audience)), (steps, audience)
            followed += 1
    assert followed > 100


def test_a_position_shows_no_other_hand():
    rules = make_rules("georgian-club")
    state = new_game(rules, 0)
    state = apply(state, deal_cards(state, random.Random(3)))
    while state.phase != "card":
        state = apply(state, legal_actions(state)[0])
    for seat in range(4):
        told = position(state, seat)
        others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
        assert set(told["hand"]) == set(state.hands[seat])
        assert not others & set(json.dumps(told).split('"'))
    assert position(state, None)["hand"] == []
    assert "legal" not in position(state, (state.turn + 1) % 4)


@pytest.mark.slow
def test_the_page_follows_as_the_engine(tmp_path):
    """The page's script (static/js/game/follow.js), given the same views,
    steps and positions, keeps the same views."""
    node = shutil.which("node")
    assert node, "node is needed for the page's script"
    cases = []
    for profile, options in SETUPS:
        for before, steps, after in steps_of_a_game(profile, options, 7):
            for audience in audiences(after):
                cases.append(
                    {
                        "before": view(before, audience),
                        "steps": steps,
                        "position": position(after, audience),
                        "after": view(after, audience),
                    }
                )
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    done = subprocess.run(
        [node, str(FOLLOWER), str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == f"{len(cases)} followed"
