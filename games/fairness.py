"""Commitments to deals, so that players can check no deal was changed.

When a deal begins every seat receives ``sha256(preimage)``, where the
preimage is the deal's cards and a random salt in canonical JSON. When the
game is over the preimages are published; hashing one must give the
commitment sent earlier, and its cards must be the cards in the record.

The downloadable record carries each deal's commitment and salt under
``"fairness"``: with the deal's cards, already in the record, that rebuilds
the preimage, so a record can be checked on its own (``record_failures``;
docs/engine.md shows the same check in a few lines).
"""

from __future__ import annotations

import hashlib
import json
import secrets

from joker.actions import Deal


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


def record_preimage(index: int, deal: dict, salt: str) -> str:
    """The preimage of deal ``index`` rebuilt from its entry in a game record
    (a Japanese deal has no ``turned``, a four-player deal no ``columns``)."""
    data = {
        "columns": deal.get("columns", []),
        "deal": index,
        "hands": deal["hands"],
        "salt": salt,
        "turned": deal.get("turned"),
    }
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def record_failures(record: dict) -> list[int]:
    """The deals of a game record whose cards do not hash to their commitment
    (or that have no commitment); [] when every deal checks out."""
    proofs = {item["deal"]: item for item in record.get("fairness", [])}
    failed = []
    for index, deal in enumerate(record["deals"]):
        proof = proofs.get(index)
        if (
            proof is None
            or digest(record_preimage(index, deal, proof["salt"]))
            != proof["commitment"]
        ):
            failed.append(index)
    return failed


def commit(index: int, deal: Deal) -> tuple[str, str]:
    """A fresh salt and the commitment for a deal."""
    salt = secrets.token_hex(16)
    return salt, digest(preimage(index, deal, salt))


# The check anyone can run on a downloaded record, shown on the replay page
# and in docs/engine.md (a test holds the two the same): it rebuilds each
# deal's preimage as ``record_preimage`` does and compares the hashes.
CHECK_SCRIPT = """\
import hashlib, json, sys

record = json.load(open(sys.argv[1], encoding="utf-8"))
proofs = {proof["deal"]: proof for proof in record["fairness"]}
changed = []
for index, deal in enumerate(record["deals"]):
    proof = proofs.get(index, {"salt": "", "commitment": "missing"})
    preimage = {
        "columns": deal.get("columns", []),
        "deal": index,
        "hands": deal["hands"],
        "salt": proof["salt"],
        "turned": deal.get("turned"),
    }
    text = json.dumps(preimage, sort_keys=True, separators=(",", ":"))
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != proof["commitment"]:
        changed.append(index)
print("changed deals:", changed or "none")
sys.exit(1 if changed else 0)
"""
