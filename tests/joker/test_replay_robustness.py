"""Damaged records get a located error, never a crash.

Seeded mutations of the example records (values swapped for other JSON
types, keys dropped or added, numbers nudged, cards exchanged) must either
replay or raise ``RecordError`` with one of the codes of RECORD.md.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from joker.record import RecordError, replay, result_json

EXAMPLES = sorted((Path(__file__).parent / "examples").glob("*.record.json"))
CODES = {"bad_record", "bad_deal", "wrong_seat", "wrong_action", "illegal"}
ODD_VALUES = [None, True, False, 0, 1, -1, 2.5, 9, 99, "", "X1", "AS", "none", [], {}]


def containers(value, found):
    """Every dict and list inside a JSON value, paired with its keys."""
    if isinstance(value, dict):
        found.append((value, list(value)))
        for item in value.values():
            containers(item, found)
    elif isinstance(value, list):
        found.append((value, list(range(len(value)))))
        for item in value:
            containers(item, found)
    return found


def mutate(record, rng: random.Random):
    record = copy.deepcopy(record)
    targets = [(c, keys) for c, keys in containers(record, []) if keys]
    container, keys = rng.choice(targets)
    key = rng.choice(keys)
    roll = rng.random()
    if roll < 0.5:
        container[key] = rng.choice(ODD_VALUES)
    elif roll < 0.7 and isinstance(container, dict):
        del container[key]
    elif roll < 0.8 and isinstance(container, dict):
        container["extra"] = 1
    elif isinstance(container[key], int) and not isinstance(container[key], bool):
        container[key] += rng.choice([-1, 1])
    else:
        other_container, other_keys = rng.choice(targets)
        other = rng.choice(other_keys)
        container[key], other_container[other] = other_container[other], container[key]
    return record


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_mutated_records_fail_cleanly(path):
    original = json.loads(path.read_text())
    if not isinstance(original, dict):
        return
    rng = random.Random(path.name)
    for _ in range(40):
        record = mutate(original, rng)
        try:
            result_json(replay(record).state)
        except RecordError as error:
            assert error.error.code in CODES
            assert str(error.error)
