"""RECORD.md: reading records, every error code, their priority, options,
the result document and the exit codes of the replay command."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from joker import (
    BadRecord,
    EngineError,
    Resign,
    WrongSeat,
    apply,
    make_rules,
    new_game,
)
from joker.record import RecordError, record_json, replay, result_json
from joker.replay import main as replay_command
from joker.shuffle import deal_cards
from tests.joker.notation import smallest

REPO_ROOT = Path(__file__).resolve().parents[2]

# The record of RECORD.md.
EXAMPLE = {
    "profile": "georgian-club",
    "options": {
        "schedule": "classic",
        "hisht_penalty": "200",
        "deductions": True,
        "pairs": False,
    },
    "first_dealer": 0,
    "deals": [
        {
            "hands": [["AH"], ["7C"], ["X1"], ["KD"]],
            "turned": "9S",
            "actions": [
                {"seat": 1, "bid": 0},
                {"seat": 2, "bid": 1},
                {"seat": 3, "bid": 1},
                {"seat": 0, "bid": 1},
                {"seat": 1, "card": "7C"},
                {"seat": 2, "card": "X1", "mode": "high"},
                {"seat": 3, "card": "KD"},
                {"seat": 0, "card": "AH"},
            ],
        }
    ],
}

EXAMPLE_RESULT = {
    "profile": "georgian-club",
    "complete": False,
    "deals": [
        {
            "dealer": 0,
            "cards": 1,
            "trump": "S",
            "bids": [1, 0, 1, 1],
            "table": "tsaglejva",
            "tricks": [0, 0, 1, 0],
            "trick_winners": [2],
            "scores": [-200, 50, 100, -200],
        }
    ],
    "pulkas": [],
    "totals": [-200, 50, 100, -200],
    "next": {"action": "deal", "deal": 1, "dealer": 1, "cards": 2},
}

# A 2-card second deal for the example (dealer 1, seat 2 bids first).
SECOND_DEAL = {
    "hands": [["AS", "7H"], ["KS", "8H"], ["QS", "9H"], ["JS", "TH"]],
    "turned": "6D",
    "actions": [],
}

# Seed 000's Japanese example deal (see test_rules_japanese).
JAPANESE = {
    "profile": "japanese",
    "first_declarer": 0,
    "deals": [
        {
            "hands": [
                ["AH", "TH", "KC", "9C", "JD", "7D", "8S", "QS"],
                ["7H", "JH", "X1", "TS", "8D", "9D", "7C", "AD"],
            ],
            "columns": [
                [["X2", "KS"], ["9H", "6D"], ["QD", "QC"], ["9S", "8H"], ["7S", "TD"]],
                [["QH", "AS"], ["JC", "JS"], ["AC", "TC"], ["KH", "6H"], ["8C", "KD"]],
            ],
            "actions": [
                {"seat": 0, "trump": "H"},
                {"seat": 0, "card": "AH"},
                {"seat": 1, "card": "7H"},
            ],
        }
    ],
}


def run(record):
    """(exit status, output) as the replay command gives them."""
    try:
        return 0, result_json(replay(record).state)
    except RecordError as error:
        return 1, error.to_json()


def error_of(record):
    status, out = run(record)
    assert status == 1, out
    assert set(out) == {"error"}
    error = out["error"]
    assert set(error) == {"deal", "action", "code", "message"}
    assert isinstance(error["message"], str) and error["message"]
    return error["deal"], error["action"], error["code"]


def example(**changes):
    record = copy.deepcopy(EXAMPLE)
    record.update(changes)
    return record


def with_action(index, action, deal=0, base=None):
    record = copy.deepcopy(base or EXAMPLE)
    actions = record["deals"][deal]["actions"]
    actions[index:] = [action]
    return record


def japanese(**changes):
    record = copy.deepcopy(JAPANESE)
    record.update(changes)
    return record


def played_record(profile, options=None, seed=0, first=0, resign=None):
    """A complete game played by the fixed policy, as a record."""
    rules = make_rules(profile, options)
    state = new_game(rules, first)
    rng = random.Random(seed)
    history = []
    while not state.is_over:
        if state.phase == "deal":
            deal = deal_cards(state, rng)
            history.append((deal, []))
            state = apply(state, deal)
            continue
        if (
            resign is not None
            and len(history) == resign[1]
            and resign[0] not in state.left
        ):
            action = Resign(resign[0])
        else:
            action = smallest(state)
        history[-1][1].append(action)
        state = apply(state, action)
    return record_json(rules, first, history), state


# --- A valid record -----------------------------------------------------------


def test_the_record_md_example_result():
    status, out = run(copy.deepcopy(EXAMPLE))
    assert status == 0
    assert out == EXAMPLE_RESULT


def test_options_and_first_dealer_may_be_omitted():
    record = example()
    del record["options"]
    del record["first_dealer"]
    assert run(record) == (0, EXAMPLE_RESULT)
    assert run(example(options=None)) == (0, EXAMPLE_RESULT)
    assert run(example(options={})) == (0, EXAMPLE_RESULT)


def test_a_record_may_stop_after_any_action():
    actions = EXAMPLE["deals"][0]["actions"]
    expected_next = [
        ("bid", 1, [0, 1]),
        ("bid", 2, [0, 1]),
        ("bid", 3, [0, 1]),
        ("bid", 0, [1]),  # dealer: 0 + 1 + 1 = 2, any bid is allowed but...
        ("card", 1, [{"card": "7C"}]),
        ("card", 2, [{"card": "X1", "mode": "high"}, {"card": "X1", "mode": "low"}]),
        ("card", 3, [{"card": "KD"}]),
        ("card", 0, [{"card": "AH"}]),
    ]
    for cut in range(len(actions)):
        record = copy.deepcopy(EXAMPLE)
        record["deals"][0]["actions"] = actions[:cut]
        status, out = run(record)
        assert status == 0
        assert out["complete"] is False
        assert out["deals"] == []
        kind, seat, choices = expected_next[cut]
        nxt = out["next"]
        assert set(nxt) == {"action", "seat", "legal"}
        assert (nxt["action"], nxt["seat"]) == (kind, seat)
        if kind == "bid" and seat == 0:
            # Bids 0, 1, 1 before the dealer: sum 2 > 1 already, so 0 and 1.
            assert sorted(nxt["legal"]) == [0, 1]
        else:
            key = json.dumps
            assert sorted(map(key, nxt["legal"])) == sorted(map(key, choices))


def test_a_deal_dealt_but_not_played():
    record = example()
    record["deals"].append(copy.deepcopy(SECOND_DEAL))
    status, out = run(record)
    assert status == 0
    assert out["next"] == {"action": "bid", "seat": 2, "legal": [0, 1, 2]}


def test_an_empty_record():
    status, out = run({"profile": "live-games", "deals": []})
    assert status == 0
    assert out == {
        "profile": "live-games",
        "complete": False,
        "deals": [],
        "pulkas": [],
        "totals": [0, 0, 0, 0],
        "next": {"action": "deal", "deal": 0, "dealer": 0, "cards": 1},
    }


def test_next_trump_in_a_named_deal():
    record = {
        "profile": "georgian-club",
        "options": {"schedule": "nines"},
        "first_dealer": 3,
        "deals": [],
    }
    state = new_game(make_rules("georgian-club", {"schedule": "nines"}), 3)
    deal = deal_cards(state, random.Random(0))
    record["deals"].append({"hands": [list(h) for h in deal.hands], "actions": []})
    status, out = run(record)
    assert status == 0
    assert out["next"]["action"] == "trump" and out["next"]["seat"] == 0
    assert sorted(out["next"]["legal"]) == sorted(["S", "H", "D", "C", "none"])
    record["deals"][0]["turned"] = None  # null is the same as absent
    assert run(record)[0] == 0


def test_the_record_md_legal_list_example():
    # georgian-club, after a 7C lead, seat 2 holding 9C, KC and X1.
    hands = [
        "7C AS KS QS JS TS 9S 8S 7S",
        "8C AH KH QH JH TH 9H 8H 7H",
        "9C KC X1 AD KD QD JD TD 9D",
        "6H 8D 7D 6D AC QC JC TC X2",
    ]
    actions = [{"seat": 0, "trump": "H"}]
    actions += [{"seat": seat, "bid": 0} for seat in range(4)]
    actions += [{"seat": 0, "card": "7C"}, {"seat": 1, "card": "8C"}]
    record = {
        "profile": "georgian-club",
        "options": {"schedule": "nines"},
        "first_dealer": 3,
        "deals": [{"hands": [h.split() for h in hands], "actions": actions}],
    }
    status, out = run(record)
    assert status == 0, out
    assert out["next"]["action"] == "card" and out["next"]["seat"] == 2
    expected = [
        {"card": "9C"},
        {"card": "KC"},
        {"card": "X1", "mode": "high"},
        {"card": "X1", "mode": "low"},
    ]
    key = json.dumps
    assert sorted(map(key, out["next"]["legal"])) == sorted(map(key, expected))


def test_japanese_results():
    status, out = run(japanese())
    assert status == 0
    assert out == {
        "profile": "japanese",
        "complete": False,
        "deals": [],
        "totals": [0, 0],
        "next": {"action": "card", "seat": 0, "legal": out["next"]["legal"]},
    }
    # Trick 2: the face-up cards are available now.
    assert {"card": "8H"} in out["next"]["legal"]
    record, state = played_record("japanese", {"target": 11}, seed=3)
    status, out = run(record)
    assert status == 0
    assert out["complete"] is True and "next" not in out
    for deal in out["deals"]:
        assert set(deal) == {"declarer", "trump", "tricks", "trick_winners", "points"}
        assert sum(deal["tricks"]) == 18
    assert "pulkas" not in out
    assert max(out["totals"]) >= 11
    assert out["winners"] == [out["totals"].index(max(out["totals"]))]
    assert sorted(out["places"]) == [1, 2]
    # Between deals the next deal names its declarer, not a dealer.
    partial = copy.deepcopy(record)
    partial["deals"] = partial["deals"][:1]
    status, out = run(partial)
    assert out["next"] == {"action": "deal", "deal": 1, "declarer": 1}


def test_japanese_resign_result():
    record = japanese()
    record["deals"][0]["actions"].append({"seat": 1, "resign": True})
    status, out = run(record)
    assert status == 0
    assert out["complete"] is True
    assert out["left"] == [1]
    assert out["winners"] == [0]
    assert out["places"] == [1, 2]
    assert "next" not in out


@pytest.mark.parametrize(
    "profile, options",
    [
        ("georgian-club", {"schedule": "nines"}),
        (
            "georgian-club",
            {"schedule": "nines", "pairs": True, "hisht_penalty": "dynamic"},
        ),
        ("georgian-tvaladze", None),
        ("live-games", {"scoring": "home-bid"}),
    ],
)
def test_complete_four_player_records_round_trip(profile, options):
    record, state = played_record(profile, options, seed=1, first=2)
    record = json.loads(json.dumps(record))
    status, out = run(record)
    assert status == 0
    assert out == result_json(state)
    assert out["complete"] is True and "next" not in out
    assert len(out["pulkas"]) == 4
    for pulka in out["pulkas"]:
        assert set(pulka) == {"pulka", "premium", "bonus", "deduction"}
    assert ("team_totals" in out) == bool(options and options.get("pairs"))
    assert "left" not in out


def test_a_four_player_resign_is_recorded_and_the_seat_plays_on():
    record, state = played_record(
        "georgian-club", {"schedule": "nines"}, seed=2, resign=(3, 2)
    )
    status, out = run(record)
    assert status == 0
    assert out["left"] == [3]
    assert out["complete"] is True
    assert out["places"][3] == 4


# --- Error codes ---------------------------------------------------------------

BAD_RECORDS = [
    ("no profile", lambda r: r.pop("profile")),
    ("unknown profile", lambda r: r.update(profile="georgian")),
    ("profile not a string", lambda r: r.update(profile=4)),
    ("unknown key", lambda r: r.update(extra=1)),
    ("misspelt key", lambda r: r.update(first_deler=r.pop("first_dealer"))),
    ("first_declarer in a 4-player game", lambda r: r.update(first_declarer=0)),
    ("options not an object", lambda r: r.update(options=[])),
    ("unknown option", lambda r: r["options"].update(speed="fast")),
    ("bad schedule", lambda r: r["options"].update(schedule="short")),
    ("bad hisht", lambda r: r["options"].update(hisht_penalty="300")),
    ("bad hisht number", lambda r: r["options"].update(hisht_penalty=300)),
    ("hisht float", lambda r: r["options"].update(hisht_penalty=200.0)),
    ("deductions string", lambda r: r["options"].update(deductions="yes")),
    ("deductions number", lambda r: r["options"].update(deductions=1)),
    ("pairs null", lambda r: r["options"].update(pairs=None)),
    ("first_dealer 4", lambda r: r.update(first_dealer=4)),
    ("first_dealer -1", lambda r: r.update(first_dealer=-1)),
    ("first_dealer string", lambda r: r.update(first_dealer="0")),
    ("first_dealer null", lambda r: r.update(first_dealer=None)),
    ("first_dealer float", lambda r: r.update(first_dealer=0.0)),
    ("first_dealer bool", lambda r: r.update(first_dealer=False)),
    ("no deals", lambda r: r.pop("deals")),
    ("deals not a list", lambda r: r.update(deals={})),
    ("deals null", lambda r: r.update(deals=None)),
]


@pytest.mark.parametrize("name, change", BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS])
def test_bad_record_outside_the_deals(name, change):
    record = example()
    change(record)
    assert error_of(record) == (None, None, "bad_record")


BAD_OPTIONS = [
    ("live-games", {"scoring": "home"}),
    ("live-games", {"scoring": None}),
    ("live-games", {"schedule": "nines"}),
    ("live-games", {"deductions": False}),
    ("live-games", {"hisht_penalty": "200"}),
    ("georgian-tvaladze", {"pairs": False}),
    ("georgian-tvaladze", {"schedule": "classic"}),
    ("japanese", {"target": 20}),
    ("japanese", {"target": 21.0}),
    ("japanese", {"target": "21.0"}),
    ("japanese", {"scoring": "online"}),
    ("georgian-club", {"scoring": "online"}),
    ("georgian-club", {"target": 21}),
]


@pytest.mark.parametrize("profile, options", BAD_OPTIONS)
def test_bad_options(profile, options):
    with pytest.raises(BadRecord):
        make_rules(profile, options)
    record = {"profile": profile, "options": options, "deals": []}
    assert error_of(record) == (None, None, "bad_record")


GOOD_OPTIONS = [
    ("georgian-club", {"schedule": "nines"}),
    ("georgian-club", {"hisht_penalty": 200}),
    ("georgian-club", {"hisht_penalty": 500}),
    ("georgian-club", {"hisht_penalty": "500"}),
    ("georgian-club", {"hisht_penalty": "alternating"}),
    ("georgian-club", {"hisht_penalty": "dynamic"}),
    ("georgian-club", {"deductions": False, "pairs": True}),
    ("live-games", {"scoring": "online"}),
    ("live-games", {"scoring": "home-missing"}),
    ("live-games", {"scoring": "home-bid"}),
    ("georgian-tvaladze", {}),
    ("georgian-tvaladze", None),
    ("japanese", {"target": 11}),
    ("japanese", {"target": "15"}),
    ("japanese", {"target": 31}),
    ("japanese", {"target": "21"}),
]


@pytest.mark.parametrize("profile, options", GOOD_OPTIONS)
def test_good_options(profile, options):
    make_rules(profile, options)
    status, _ = run({"profile": profile, "options": options, "deals": []})
    assert status == 0


def test_japanese_record_keys():
    assert error_of(japanese(first_dealer=0)) == (None, None, "bad_record")
    for bad in (None, 2, "0", 1.0):
        assert error_of(japanese(first_declarer=bad)) == (None, None, "bad_record")
    record = japanese()
    del record["first_declarer"]
    assert run(record)[0] == 0


BAD_DEAL_SHAPES = [
    ("only unknown keys", lambda d: d.clear() or d.update(x=1)),
    ("no hands", lambda d: d.pop("hands")),
    ("no actions", lambda d: d.pop("actions")),
    ("unknown key", lambda d: d.update(columns=[])),
    ("misspelt turned", lambda d: d.update(turn=d.pop("turned"))),
    ("actions not a list", lambda d: d.update(actions={})),
    ("actions null", lambda d: d.update(actions=None)),
    ("hands not a list", lambda d: d.update(hands="AH 7C X1 KD")),
    ("a hand not a list", lambda d: d["hands"].__setitem__(0, "AH")),
    ("a card not a string", lambda d: d["hands"][0].__setitem__(0, 14)),
    ("a card null", lambda d: d["hands"][1].__setitem__(0, None)),
    ("turned not a string", lambda d: d.update(turned=9)),
]


@pytest.mark.parametrize(
    "name, change", BAD_DEAL_SHAPES, ids=[b[0] for b in BAD_DEAL_SHAPES]
)
def test_bad_record_in_a_deal(name, change):
    record = example()
    record["deals"].append(copy.deepcopy(SECOND_DEAL))
    change(record["deals"][1])
    assert error_of(record) == (1, None, "bad_record")


def test_a_deal_that_is_not_an_object():
    record = example()
    record["deals"].append([["AS"]])
    assert error_of(record) == (1, None, "bad_record")


def test_japanese_deal_shapes():
    record = japanese()
    record["deals"][0]["turned"] = None
    assert error_of(record) == (0, None, "bad_record")
    record = japanese()
    del record["deals"][0]["columns"]
    assert error_of(record) == (0, None, "bad_record")
    record = japanese()
    record["deals"][0]["columns"][0][0] = "X2 KS"
    assert error_of(record) == (0, None, "bad_record")
    record = japanese()
    record["deals"][0]["columns"] = {}
    assert error_of(record) == (0, None, "bad_record")


BAD_ACTIONS = [
    ("not an object", ["seat", 1]),
    ("no seat", {"bid": 0}),
    ("seat string", {"seat": "1", "bid": 0}),
    ("seat float", {"seat": 1.0, "bid": 0}),
    ("seat bool", {"seat": True, "bid": 0}),
    ("seat null", {"seat": None, "bid": 0}),
    ("no kind", {"seat": 1}),
    ("two kinds", {"seat": 1, "bid": 0, "card": "7C"}),
    ("unknown key", {"seat": 1, "bid": 0, "note": "x"}),
    ("mode on a bid", {"seat": 1, "bid": 0, "mode": "high"}),
    ("bid float", {"seat": 1, "bid": 0.0}),
    ("bid string", {"seat": 1, "bid": "0"}),
    ("bid bool", {"seat": 1, "bid": False}),
    ("bid null", {"seat": 1, "bid": None}),
    ("trump not a string", {"seat": 1, "trump": 1}),
    ("card not a string", {"seat": 1, "card": 7}),
    ("card list", {"seat": 1, "card": ["7C"]}),
    ("resign false", {"seat": 1, "resign": False}),
    ("resign string", {"seat": 1, "resign": "yes"}),
    ("resign 1", {"seat": 1, "resign": 1}),
    ("joker without mode", {"seat": 1, "card": "X1"}),
    ("joker with only a suit", {"seat": 1, "card": "X2", "suit": "S"}),
    ("mode on an ordinary card", {"seat": 1, "card": "7C", "mode": "high"}),
    ("suit on an ordinary card", {"seat": 1, "card": "7C", "suit": "C"}),
    ("mode not a string", {"seat": 1, "card": "X1", "mode": 1}),
    ("suit not a string", {"seat": 1, "card": "X1", "mode": "take", "suit": 3}),
    ("mode null", {"seat": 1, "card": "X1", "mode": None}),
]


@pytest.mark.parametrize("name, action", BAD_ACTIONS, ids=[b[0] for b in BAD_ACTIONS])
def test_bad_record_in_an_action(name, action):
    # Action 0 (seat 1 to bid) and action 4 (seat 1 to lead).
    assert error_of(with_action(0, action)) == (0, 0, "bad_record")
    assert error_of(with_action(4, action)) == (0, 4, "bad_record")


BAD_DEALS = [
    ("three hands", {"hands": [["AH"], ["7C"], ["X1"]]}),
    ("five hands", {"hands": [["AH"], ["7C"], ["X1"], ["KD"], ["QD"]]}),
    ("two cards", {"hands": [["AH", "AS"], ["7C"], ["X1"], ["KD"]]}),
    ("no cards", {"hands": [[], ["7C"], ["X1"], ["KD"]]}),
    ("duplicate", {"hands": [["AH"], ["AH"], ["X1"], ["KD"]]}),
    ("unknown code", {"hands": [["ZZ"], ["7C"], ["X1"], ["KD"]]}),
    ("six of spades", {"hands": [["6S"], ["7C"], ["X1"], ["KD"]]}),
    ("lower case", {"hands": [["ah"], ["7C"], ["X1"], ["KD"]]}),
    ("no turned card", {"turned": None}),
    ("turned in a hand", {"turned": "AH"}),
    ("turned unknown", {"turned": "6C"}),
]


@pytest.mark.parametrize("name, change", BAD_DEALS, ids=[b[0] for b in BAD_DEALS])
def test_bad_deal(name, change):
    record = example()
    record["deals"][0].update(change)
    record["deals"][0]["actions"] = []
    assert error_of(record) == (0, None, "bad_deal")


def test_bad_deal_absent_turned_card():
    record = example()
    del record["deals"][0]["turned"]
    assert error_of(record) == (0, None, "bad_deal")


def test_bad_deal_wrong_size_for_the_deal_number():
    record = example()
    record["deals"].append(copy.deepcopy(SECOND_DEAL))
    record["deals"][1]["hands"] = [["AS"], ["KS"], ["QS"], ["JS"]]
    assert error_of(record) == (1, None, "bad_deal")


def test_bad_deal_after_an_unfinished_deal():
    record = example()
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:5]
    record["deals"].append(copy.deepcopy(SECOND_DEAL))
    assert error_of(record) == (1, None, "bad_deal")


NINE_HANDS = [
    ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AH"],
    ["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "AD"],
    ["KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "AC"],
    ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "X1", "X2"],
]


def test_bad_deal_nine_cards():
    club = {"profile": "georgian-club", "options": {"schedule": "nines"}, "deals": []}
    club["deals"].append({"hands": NINE_HANDS, "turned": "AH", "actions": []})
    assert error_of(club) == (0, None, "bad_deal")
    club["deals"][0]["turned"] = None
    assert run(club)[0] == 0
    # Tvaladze: the turned card is one of the dealer's (deal 8, dealer 0).
    tvaladze = played_record("georgian-tvaladze", seed=0)[0]
    tvaladze["deals"] = tvaladze["deals"][:8]
    assert run(tvaladze)[0] == 0
    tvaladze["deals"].append({"hands": NINE_HANDS, "turned": "AD", "actions": []})
    assert error_of(tvaladze) == (8, None, "bad_deal")
    tvaladze["deals"][8]["turned"] = None
    assert error_of(tvaladze) == (8, None, "bad_deal")
    tvaladze["deals"][8]["turned"] = "AH"
    status, out = run(tvaladze)
    assert status == 0 and out["next"]["action"] == "bid"


def test_bad_japanese_deals():
    for change in (
        lambda d: d["hands"][0].pop(),
        lambda d: d["hands"].pop(),
        lambda d: d["columns"][1].pop(),
        lambda d: d["columns"][1][0].append("AH"),
        lambda d: d["columns"][1][0].__setitem__(0, "AH"),
        lambda d: d["hands"][0].__setitem__(0, "6C"),
    ):
        record = japanese()
        change(record["deals"][0])
        assert error_of(record) == (0, None, "bad_deal")


def test_wrong_seat():
    assert error_of(with_action(0, {"seat": 2, "bid": 0})) == (0, 0, "wrong_seat")
    assert error_of(with_action(0, {"seat": 4, "bid": 0})) == (0, 0, "wrong_seat")
    assert error_of(with_action(0, {"seat": -1, "bid": 0})) == (0, 0, "wrong_seat")
    assert error_of(with_action(3, {"seat": 1, "bid": 0})) == (0, 3, "wrong_seat")
    assert error_of(with_action(5, {"seat": 3, "card": "KD"})) == (0, 5, "wrong_seat")
    assert error_of(with_action(0, {"seat": 9, "resign": True})) == (0, 0, "wrong_seat")
    record = japanese()
    record["deals"][0]["actions"][0] = {"seat": 1, "trump": "H"}
    assert error_of(record) == (0, 0, "wrong_seat")


def test_a_record_error_is_caught_as_an_engine_error_with_the_code_it_wraps():
    # Whoever refuses bad engine input catches EngineError (or ValueError)
    # and answers with its code; a bad record reaches them the same way.
    with pytest.raises(EngineError) as caught:
        replay(with_action(3, {"seat": 1, "bid": 0}))
    error = caught.value
    assert isinstance(error, RecordError)
    assert isinstance(error, ValueError)
    assert isinstance(error.error, WrongSeat)
    assert error.code == error.error.code == "wrong_seat"
    assert str(error) == str(error.error)
    assert error.to_json() == {
        "error": {
            "deal": 0,
            "action": 3,
            "code": "wrong_seat",
            "message": str(error.error),
        }
    }

    with pytest.raises(ValueError) as caught:
        replay(example(extra=1))
    assert isinstance(caught.value, RecordError)
    assert caught.value.code == "bad_record"
    assert (caught.value.deal, caught.value.action) == (None, None)


def test_the_replay_command_answers_a_record_error_with_exit_1(tmp_path, capsys):
    record = with_action(3, {"seat": 1, "bid": 0})
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert replay_command([str(path)]) == 1
    output = json.loads(capsys.readouterr().out)
    assert output["error"]["code"] == "wrong_seat"
    assert output == run(record)[1]


def test_wrong_action():
    assert error_of(with_action(0, {"seat": 1, "card": "7C"})) == (0, 0, "wrong_action")
    assert error_of(with_action(0, {"seat": 1, "trump": "H"})) == (0, 0, "wrong_action")
    assert error_of(with_action(4, {"seat": 1, "bid": 0})) == (0, 4, "wrong_action")
    record = japanese()
    record["deals"][0]["actions"][0] = {"seat": 0, "card": "AH"}
    assert error_of(record) == (0, 0, "wrong_action")


def test_wrong_action_after_the_deal_is_over():
    record = example()
    record["deals"][0]["actions"].append({"seat": 1, "bid": 0})
    assert error_of(record) == (0, 8, "wrong_action")
    record = example()
    record["deals"][0]["actions"].append({"seat": 1, "resign": True})
    assert error_of(record) == (0, 8, "wrong_action")


def test_wrong_action_after_the_game_is_over():
    record = japanese()
    record["deals"][0]["actions"] += [
        {"seat": 0, "resign": True},
        {"seat": 0, "card": "8H"},
    ]
    assert error_of(record) == (0, 4, "wrong_action")
    record, _ = played_record("georgian-club", {"schedule": "nines"}, seed=6)
    last = record["deals"][-1]
    last["actions"].append({"seat": 0, "bid": 0})
    assert error_of(record) == (15, len(last["actions"]) - 1, "wrong_action")
    last["actions"].pop()
    record["deals"].append(copy.deepcopy(record["deals"][0]))
    assert error_of(record) == (16, None, "wrong_action")


def test_illegal():
    assert error_of(with_action(0, {"seat": 1, "bid": 2})) == (0, 0, "illegal")
    assert error_of(with_action(0, {"seat": 1, "bid": -1})) == (0, 0, "illegal")
    # The dealer's forbidden bid: 0 + 0 + 0, so not 1.
    record = copy.deepcopy(EXAMPLE)
    record["deals"][0]["actions"][1:] = [
        {"seat": 2, "bid": 0},
        {"seat": 3, "bid": 0},
        {"seat": 0, "bid": 1},
    ]
    assert error_of(record) == (0, 3, "illegal")
    for card in ("AH", "KH", "ZZ", "6S", "9S", "", "7c"):
        assert error_of(with_action(4, {"seat": 1, "card": card})) == (0, 4, "illegal")
    joker = {"seat": 2, "card": "X1"}
    for extra in (
        {"mode": "take", "suit": "C"},
        {"mode": "high", "suit": "C"},
        {"mode": "foo"},
        {"mode": "nominal"},
    ):
        assert error_of(with_action(5, joker | extra)) == (0, 5, "illegal")


def test_illegal_in_play():
    # Not following suit (seat 2 holds a club after the lead).
    record = copy.deepcopy(EXAMPLE)
    record["deals"].append(copy.deepcopy(SECOND_DEAL))
    record["deals"][1]["hands"] = [
        ["AS", "7H"],
        ["KS", "8H"],
        ["QS", "9H"],
        ["JS", "TH"],
    ]
    record["deals"][1]["actions"] = [
        {"seat": 2, "bid": 0},
        {"seat": 3, "bid": 0},
        {"seat": 0, "bid": 0},
        {"seat": 1, "bid": 0},
        {"seat": 2, "card": "QS"},
        {"seat": 3, "card": "TH"},
    ]
    assert error_of(record) == (1, 5, "illegal")
    # Unknown trump named; take/give without a suit; a card already played.
    record = japanese()
    record["deals"][0]["actions"][0] = {"seat": 0, "trump": "hearts"}
    assert error_of(record) == (0, 0, "illegal")
    record = japanese()
    record["deals"][0]["actions"] += [{"seat": 0, "card": "AH"}]
    assert error_of(record) == (0, 3, "illegal")
    record = japanese()
    record["deals"][0]["actions"] += [
        {"seat": 0, "card": "X2", "mode": "take", "suit": "S"}
    ]
    assert error_of(record) == (0, 3, "illegal")  # face down


def test_a_seat_resigns_at_most_once():
    record = copy.deepcopy(EXAMPLE)
    record["deals"][0]["actions"][2:2] = [
        {"seat": 0, "resign": True},
        {"seat": 0, "resign": True},
    ]
    assert error_of(record) == (0, 3, "illegal")


def test_a_resign_may_come_out_of_turn_and_between_deals():
    record = copy.deepcopy(EXAMPLE)
    record["deals"][0]["actions"].insert(2, {"seat": 0, "resign": True})
    second = copy.deepcopy(SECOND_DEAL)
    second["actions"] = [{"seat": 3, "resign": True}]
    record["deals"].append(second)
    status, out = run(record)
    assert status == 0
    assert out["left"] == [0, 3]
    assert out["next"]["action"] == "bid" and out["next"]["seat"] == 2


# --- Priority ---------------------------------------------------------------


def test_priority_bad_record_first():
    # A wrong seat with a card that is not a string.
    assert error_of(with_action(0, {"seat": 3, "card": 5})) == (0, 0, "bad_record")
    # A wrong kind with an unknown key.
    assert error_of(with_action(0, {"seat": 1, "card": "7C", "x": 1})) == (
        0,
        0,
        "bad_record",
    )
    # An illegal joker without a mode.
    assert error_of(with_action(4, {"seat": 1, "card": "X2"})) == (0, 4, "bad_record")
    # After the game is over.
    record = japanese()
    record["deals"][0]["actions"] += [
        {"seat": 0, "resign": True},
        {"seat": "0", "bid": 1},
    ]
    assert error_of(record) == (0, 4, "bad_record")
    # A deal with a bad shape and duplicate cards.
    record = example()
    record["deals"][0]["hands"] = [["AH"], ["AH"], [1], ["KD"]]
    assert error_of(record) == (0, None, "bad_record")


def test_priority_game_over_before_wrong_seat():
    record = japanese()
    record["deals"][0]["actions"] += [
        {"seat": 1, "resign": True},
        {"seat": 5, "card": "8H"},
    ]
    assert error_of(record) == (0, 4, "wrong_action")
    record = japanese()
    record["deals"][0]["actions"] += [
        {"seat": 1, "resign": True},
        {"seat": 1, "card": "ZZ"},
    ]
    assert error_of(record) == (0, 4, "wrong_action")
    # A whole deal after the game, even a bad one.
    record = japanese()
    record["deals"][0]["actions"].append({"seat": 1, "resign": True})
    bad = copy.deepcopy(JAPANESE["deals"][0])
    bad["hands"][0] = ["AH"]
    record["deals"].append(bad)
    assert error_of(record) == (1, None, "wrong_action")


def test_priority_wrong_seat_before_wrong_action_and_illegal():
    # Seat 2 plays a card while seat 1 is to bid.
    assert error_of(with_action(0, {"seat": 2, "card": "X1", "mode": "high"})) == (
        0,
        0,
        "wrong_seat",
    )
    # Seat 2 bids out of range while seat 1 is to bid.
    assert error_of(with_action(0, {"seat": 2, "bid": 7})) == (0, 0, "wrong_seat")
    # Seat 0 plays seat 1's card while seat 1 is to lead.
    assert error_of(with_action(4, {"seat": 0, "card": "7C"})) == (0, 4, "wrong_seat")


def test_priority_wrong_action_before_illegal():
    # The right seat bids out of range while a card is due.
    assert error_of(with_action(4, {"seat": 1, "bid": 7})) == (0, 4, "wrong_action")
    # The right seat plays a card it does not hold while a bid is due.
    assert error_of(with_action(0, {"seat": 1, "card": "AS"})) == (0, 0, "wrong_action")
    # Naming an unknown trump while a bid is due.
    assert error_of(with_action(0, {"seat": 1, "trump": "X"})) == (0, 0, "wrong_action")


def test_priority_no_such_seat_after_a_deal_is_over():
    # Only "after the game is over" comes before wrong_seat; after a deal
    # that is over (the game is not), a seat that does not exist is still
    # wrong_seat, for a card as for a resignation.
    for action in ({"seat": 7, "card": "AH"}, {"seat": 7, "resign": True}):
        record = example()
        record["deals"][0]["actions"].append(action)
        assert error_of(record) == (0, 8, "wrong_seat")
    # An existing seat is a wrong action there.
    record = example()
    record["deals"][0]["actions"].append({"seat": 1, "card": "7C"})
    assert error_of(record) == (0, 8, "wrong_action")


def test_the_first_offending_item_is_reported():
    record = with_action(6, {"seat": 3, "card": "AH"})
    record["deals"][0]["actions"].append({"seat": 9, "card": 5})
    assert error_of(record) == (0, 6, "illegal")


# --- The replay command -------------------------------------------------------


def command(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "joker.replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
    )


def test_command_exit_0_from_a_file_and_from_stdin(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(EXAMPLE))
    done = command(str(path))
    assert done.returncode == 0
    assert json.loads(done.stdout) == EXAMPLE_RESULT
    done = command(stdin=json.dumps(EXAMPLE))
    assert done.returncode == 0
    assert json.loads(done.stdout) == EXAMPLE_RESULT
    done = command("-", stdin=json.dumps(EXAMPLE))
    assert done.returncode == 0


def test_command_exit_1_with_the_error(tmp_path):
    done = command(stdin=json.dumps(with_action(4, {"seat": 1, "card": "AH"})))
    assert done.returncode == 1
    out = json.loads(done.stdout)
    assert out["error"]["code"] == "illegal"
    assert (out["error"]["deal"], out["error"]["action"]) == (0, 4)


@pytest.mark.parametrize(
    "text", ["", "not json", "[1, 2]", '"record"', "42", "null", "{", "true"]
)
def test_command_exit_2_when_not_a_record(text):
    done = command(stdin=text)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr


def test_command_exit_2_for_a_missing_file(tmp_path):
    done = command(str(tmp_path / "nope.json"))
    assert done.returncode == 2
    assert done.stdout == ""


def test_command_exit_2_for_bytes_that_are_not_text(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe\x00{")
    done = command(str(path))
    assert done.returncode == 2
    assert done.stdout == ""
