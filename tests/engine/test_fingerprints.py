"""The engine reproduces, state for state, 1,000 seeded random games of every
profile recorded before its fast paths were written (``fingerprint.py``)."""

from __future__ import annotations

import json

import pytest

from tests.engine.fingerprint import DATA, OPTIONS, fingerprints

RECORDED = json.loads(DATA.read_text())


@pytest.mark.parametrize("profile", list(OPTIONS))
def test_same_states_as_recorded(profile):
    expected = RECORDED[profile]
    assert len(expected) == 1000
    got = fingerprints(profile, len(expected))
    pairs = enumerate(zip(got, expected, strict=True))
    differing = [index for index, (a, b) in pairs if a != b]
    assert not differing, f"games {differing[:10]} of {profile} differ"
