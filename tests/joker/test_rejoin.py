"""A seat that left may be taken back (a casual table's choice, made by the
live game): the engine records it as an action, ``{"seat": s, "rejoin":
true}``, so a record with one replays, and the seat is no longer a leaver."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from joker import IllegalAction, Rejoin, Resign, apply, new_game
from joker.actions import action_from_json, action_to_json
from joker.events import describe
from joker.record import replay
from joker.rules import make_rules
from joker.shuffle import deal_cards

EXAMPLES = Path(__file__).resolve().parent / "examples"


def a_dealt_game():
    state = new_game(make_rules("live-games", {}), first_dealer=0)
    return apply(state, deal_cards(state))


def test_a_seat_that_left_takes_its_place_back():
    left = apply(a_dealt_game(), Resign(2))
    back = apply(left, Rejoin(2))
    assert left.left == (2,)
    assert back.left == ()
    assert describe(left, Rejoin(2), back) == [{"type": "rejoin", "seat": 2}]


def test_only_a_seat_that_left_can_rejoin():
    with pytest.raises(IllegalAction):
        apply(a_dealt_game(), Rejoin(1))


def test_the_json_form_of_a_rejoin():
    assert action_to_json(Rejoin(3)) == {"seat": 3, "rejoin": True}
    assert action_from_json({"seat": 3, "rejoin": True}) == Rejoin(3)


def test_a_record_with_a_rejoin_replays_and_the_seat_is_not_placed_last():
    record = json.loads((EXAMPLES / "live-complete-resign-01.record.json").read_text())
    # Seat 1 resigned in the twentieth deal; it comes back in the next one.
    resigned = next(
        i for i, deal in enumerate(record["deals"])
        if {"seat": 1, "resign": True} in deal["actions"]
    )  # fmt: skip
    record["deals"][resigned + 1]["actions"].insert(0, {"seat": 1, "rejoin": True})
    assert replay(record).state.left == ()
    command = subprocess.run(
        [sys.executable, "-m", "games.engine.replay"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=False,
    )
    assert command.returncode == 0, command.stdout + command.stderr
    assert "left" not in json.loads(command.stdout)
