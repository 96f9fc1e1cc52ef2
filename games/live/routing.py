"""Which server process is a game's home: where the proxy sends its sockets.

In a deployment of several web processes, the proxy (Caddy 2.6, docker/)
routes each game's sockets with its ``uri_hash`` selection policy:
rendezvous (highest random weight) hashing of the request URI
``/ws/games/<id>/``. Each upstream's weight is the 32-bit FNV-1a hash of
the URI followed by the upstream's dial address, and the highest weight
wins, the first of equal ones (``hostByHashing`` in Caddy 2.6's reverse
proxy; ``tests/routing/test_routing.py`` checks it against a real Caddy).
``home`` is the same function, so the process that the sockets reach is the
one that takes the game, and a move never crosses the channel layer. A
resize moves only the games whose highest weight changes, about 1/N.

The hash is a preference, not a rule: the lease in Redis says who owns a
game (``hall``), and a socket that reaches another process still plays
through the channel layer.

``PULKA_LIVE_NODES`` lists the upstreams as the proxy dials them (for
example ``web1:8000,web2:8000``) and ``PULKA_LIVE_NODE`` is this process's
own; with none (``make run``: one process) every game is at home.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

FNV_OFFSET = 0x811C9DC5
FNV_PRIME = 0x01000193
# A process back from the dead gets its games back only once its peers have
# seen it alive this long: the proxy's health check (every second,
# docker/Caddyfile) has marked it up by then, so the sockets closed for the
# hand-back reconnect to it, not to the process that let the game go (where
# they would stay, every move a hop).
SETTLE_SECONDS = 3.0


def socket_path(game_id: int) -> str:
    return f"/ws/games/{game_id}/"


def fnv1a_32(data: bytes) -> int:
    value = FNV_OFFSET
    for byte in data:
        value = ((value ^ byte) * FNV_PRIME) & 0xFFFFFFFF
    return value


def home(game_id: int, nodes: Sequence[str]) -> str | None:
    """The node the proxy sends the game's sockets to; None with no nodes."""
    if not nodes:
        return None
    uri = socket_path(game_id)
    return max(nodes, key=lambda node: fnv1a_32(f"{uri}{node}".encode()))


class Sightings:
    """When this process first saw each other one alive, to tell a process
    just come back (``SETTLE_SECONDS``) from one the proxy sees too."""

    def __init__(self) -> None:
        self.first_seen: dict[str, float] = {}

    def settled(self, alive: Iterable[str], now: float) -> set[str]:
        """Of the nodes ``alive`` now, those alive since ``SETTLE_SECONDS``
        ago at least, as far as this process saw (one that died meanwhile
        is seen anew)."""
        self.first_seen = {node: self.first_seen.get(node, now) for node in alive}
        return {
            node
            for node, seen in self.first_seen.items()
            if now - seen >= SETTLE_SECONDS
        }
