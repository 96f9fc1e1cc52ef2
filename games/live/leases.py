"""The leases in Redis by which the server processes know one another.

A process owns a game while it holds the game's owner key, set to the
process's channel name (so the key also says where the game's messages
go), and counts as alive while it holds its node key. Each lease lasts
``LEASE_SECONDS`` from its last renewal by the process's heartbeat
(``hall``); the keys are named here because both the hall, which takes and
renews them, and the relay, which reads them to reach other processes, use
them.
"""

from __future__ import annotations

LEASE_SECONDS = 6.0


def owner_key(game_id: int) -> str:
    return f"pulka:live:{game_id}:owner"


def node_key(node: str) -> str:
    return f"pulka:live:node:{node}"
