"""What a ledger entry's reference (``game:12``, ``tournament:3``) names, in
words and with a link, for the wallet page and the admin.

The ledger never reads games or tournaments (import-linter holds it to
that), so the apps that make references say what theirs name: each
registers a namer for its prefix when it loads (``AppConfig.ready``). A
namer takes the ids of one page of entries at once, so a page costs one
query per kind of reference, not one per line.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Named:
    label: str
    url: str


# prefix -> namer(ids) -> {id: Named}; an id missing from the answer (a
# deleted object) is shown as its plain reference.
Namer = Callable[[list[int]], dict[int, Named]]
_namers: dict[str, Namer] = {}


def reference_namer_register(prefix: str, namer: Namer) -> None:
    _namers[prefix] = namer


def references_name(refs: Iterable[str]) -> dict[str, Named]:
    """The named ones among ``refs``, by reference."""
    ids_by_prefix: dict[str, set[int]] = defaultdict(set)
    for ref in refs:
        prefix, _, rest = (ref or "").partition(":")
        if prefix in _namers and rest.isdigit():
            ids_by_prefix[prefix].add(int(rest))
    named = {}
    for prefix, ids in ids_by_prefix.items():
        for pk, name in _namers[prefix](sorted(ids)).items():
            named[f"{prefix}:{pk}"] = name
    return named
