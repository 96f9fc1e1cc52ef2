"""Fingerprints of seeded random games: a hash of every state along the way.

``tests/joker/data/fingerprints.json`` holds fingerprints of the states
the engine produced before its fast paths were written; ``test_fingerprints``
asserts that the engine still produces exactly the same states. (They were
first taken over a ``json.dumps`` encoding; the engine still matched them
state for state when they were taken again over orjson's, three times
quicker to hash.) To record them again (only when the rules themselves
change on purpose)::

    python -m tests.joker.fingerprint
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import orjson

from joker import apply, legal_actions, make_rules, new_game
from joker.codec import state_to_json
from joker.shuffle import deal_cards
from joker.state import DEAL

DATA = Path(__file__).resolve().parent / "data" / "fingerprints.json"
GAMES = 1000

# Each profile's games cycle through its options.
OPTIONS = {
    "georgian-club": [
        {},
        {"schedule": "nines"},
        {"schedule": "nines", "pairs": True},
        {"hisht_penalty": "alternating", "deductions": False},
        {"hisht_penalty": "dynamic", "pairs": True},
        {"hisht_penalty": "500", "schedule": "nines"},
    ],
    "georgian-tvaladze": [{}],
    "live-games": [{}, {"scoring": "home-missing"}, {"scoring": "home-bid"}],
    "japanese": [{"target": 11}, {"target": 15}, {}, {"target": 31}],
}


def game_fingerprint(profile: str, index: int) -> str:
    """Play game ``index`` of ``profile`` with random legal choices and hash
    the JSON form of every state it passes through, legal actions included."""
    options = OPTIONS[profile][index % len(OPTIONS[profile])]
    rules = make_rules(profile, options)
    rng = random.Random(f"{profile}/{index}")
    state = new_game(rules, first_dealer=rng.randrange(rules.players))
    digest = hashlib.sha256()
    while True:
        digest.update(orjson.dumps(state_to_json(state), option=orjson.OPT_SORT_KEYS))
        if state.is_over:
            break
        if state.phase == DEAL:
            state = apply(state, deal_cards(state, rng))
            continue
        actions = legal_actions(state)
        digest.update(repr(actions).encode())
        state = apply(state, rng.choice(actions))
    return digest.hexdigest()[:16]


def fingerprints(profile: str, games: int = GAMES) -> list[str]:
    return [game_fingerprint(profile, index) for index in range(games)]


def main() -> int:
    data = {profile: fingerprints(profile) for profile in OPTIONS}
    DATA.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
