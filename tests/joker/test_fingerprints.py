"""The engine reproduces, state for state, 1,000 seeded random games of every
profile recorded before its fast paths were written (``fingerprint.py``)."""

from __future__ import annotations

import json

import pytest

from tests.joker.fingerprint import DATA, GAMES, OPTIONS, game_fingerprint

RECORDED = json.loads(DATA.read_text())

# A thousand whole games a profile: `make test` runs it, `make test-fast` not.
pytestmark = pytest.mark.slow


# Each profile's thousand games in slices, so that the workers of a parallel
# run share them.
SLICE = 250


@pytest.mark.parametrize(
    ("profile", "first"),
    [(profile, first) for profile in OPTIONS for first in range(0, GAMES, SLICE)],
)
def test_same_states_as_recorded(profile, first):
    expected = RECORDED[profile]
    assert len(expected) == GAMES
    indices = range(first, first + SLICE)
    differing = [
        index
        for index in indices
        if game_fingerprint(profile, index) != expected[index]
    ]
    assert not differing, f"games {differing[:10]} of {profile} differ"
