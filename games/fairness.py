"""Commitments to deals, so that players can check no deal was changed.

When a deal begins every seat receives ``sha256(preimage)``, where the
preimage is the deal's cards and a random salt in canonical JSON. When the
game is over the preimages are published; hashing one must give the
commitment sent earlier, and its cards must be the cards in the record.
"""

from __future__ import annotations

import hashlib
import json
import secrets

from games.engine.actions import Deal


def preimage(index: int, deal: Deal, salt: str) -> str:
    """Canonical JSON: sorted keys, no spaces (``JSON.stringify`` of the same
    object with keys inserted in sorted order gives the same text)."""
    data = {
        "columns": [[list(column) for column in own] for own in deal.columns],
        "deal": index,
        "hands": [list(hand) for hand in deal.hands],
        "salt": salt,
        "turned": deal.turned,
    }
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def commit(index: int, deal: Deal) -> tuple[str, str]:
    """A fresh salt and the commitment for a deal."""
    salt = secrets.token_hex(16)
    return salt, digest(preimage(index, deal, salt))
