"""The compiled core of the practice bot's playouts, built from
``_core.pyx`` by ``pip install -e .``: ``CoreDeal`` (one deal in C, a step at
a time), ``Playouts`` (the practice bot's search: the candidate moves compared
on batches of sampled, played-out and scored deals, one call a move),
``solve_deal`` (the open-cards solver of the playouts' last tricks, for the
checks) and ``random_deals`` (whole random deals, for the engine's speed).

A missing build, or one made from another version of ``_core.pyx``, is an
``ImportError`` that says how to rebuild: there is no Python stand-in that
would quietly play slower or by older rules.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

REBUILD = "rebuild it with `pip install -e .` (or `make install`)"

try:
    from . import _core
except ImportError as error:
    raise ImportError(
        f"joker.bots._core, the compiled playouts, is not built: {REBUILD}"
    ) from error

_SOURCE = Path(__file__).with_name("_core.pyx")
# An installed copy without its source has nothing to be stale against.
if _SOURCE.exists():
    if hashlib.sha256(_SOURCE.read_bytes()).hexdigest() != _core.SOURCE_DIGEST:
        raise ImportError(
            f"joker.bots._core was built from another version of _core.pyx: {REBUILD}"
        )

CoreDeal = _core.CoreDeal
Playouts = _core.Playouts
random_deals = _core.random_deals
solve_deal = _core.solve_deal
estimate_tricks = _core.core_estimate_tricks
choose_bid = _core.core_choose_bid
choose_trump = _core.core_choose_trump

__all__ = [
    "CoreDeal",
    "Playouts",
    "choose_bid",
    "choose_trump",
    "estimate_tricks",
    "random_deals",
    "solve_deal",
]
