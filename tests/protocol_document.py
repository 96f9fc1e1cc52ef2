"""What docs/protocol.md promises a client can meet, read from its tables.

The walking tests (tests/games/test_documented_codes.py on the in-process
application, tests/live/test_documented_codes.py on real servers) produce
each code listed here and nothing that is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DOCUMENT = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
GAME_SOCKET = "/ws/games/<id>/"


@dataclass(frozen=True)
class Promises:
    # The close codes of a refusal at connection (the table after "closes
    # the socket at once"), and those of a socket closed later.
    at_connection: frozenset[int]
    later: frozenset[int]
    # Refusals of the handshake itself, as written ("HTTP 403").
    handshake: frozenset[str]
    # The game socket's error codes (the Error codes table).
    errors: frozenset[str]
    # Each socket's refusals at connection and error codes (The other
    # sockets); the game socket's errors are ``errors``.
    sockets: dict[str, tuple[frozenset[int], frozenset[str]]]

    @property
    def close_codes(self) -> frozenset[int]:
        return self.at_connection | self.later


def _tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """Every Markdown table: its header cells and its rows' cells."""
    tables, current = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            current = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if current is None:
            current = (cells, [])
            tables.append(current)
        elif not set("".join(cells)) <= set("-: "):
            current[1].append(cells)
    return tables


def _codes(cell: str) -> list[str]:
    return re.findall(r"`([a-z_]+)`", cell)


def _numbers(cell: str) -> frozenset[int]:
    return frozenset(int(number) for number in re.findall(r"\b\d{4}\b", cell))


@cache
def promises(text: str | None = None) -> Promises:
    text = DOCUMENT.read_text(encoding="utf-8") if text is None else text
    closes, handshake, errors, sockets = [], set(), set(), {}
    for header, rows in _tables(text):
        if header[0] == "code" and rows and rows[0][0].isdigit():
            closes.append(frozenset(int(row[0]) for row in rows))
        elif header[0] == "code" and rows and _codes(rows[0][0]):
            errors |= {code for row in rows for code in _codes(row[0])}
        elif header[0] == "status":
            handshake |= {row[0] for row in rows}
        elif header[0] == "socket":
            for row in rows:
                path = _codes_path(row[0])
                sockets[path] = (_numbers(row[2]), frozenset(_codes(row[3])))
    at_connection, later = closes
    return Promises(
        frozenset(at_connection),
        frozenset(later),
        frozenset(handshake),
        frozenset(errors),
        sockets,
    )


def _codes_path(cell: str) -> str:
    found = re.fullmatch(r"`(/ws/[^`]+)`", cell)
    assert found, f"not a socket's address: {cell!r}"
    return found[1]


@dataclass(frozen=True)
class Messages:
    # The message types the tables list a client sending (``| message |
    # effect |``) and being sent (``| message | when |``).
    sent: frozenset[str]
    received: frozenset[str]


@cache
def messages(text: str | None = None) -> Messages:
    text = DOCUMENT.read_text(encoding="utf-8") if text is None else text
    sent, received = set(), set()
    for header, rows in _tables(text):
        if header[:1] != ["message"] or len(header) < 2:
            continue
        found = {kind for row in rows for kind in _types(row[0])}
        if header[1] == "effect":
            sent |= found
        elif header[1] == "when":
            received |= found
    return Messages(frozenset(sent), frozenset(received))


def _types(cell: str) -> list[str]:
    return re.findall(r'\{"type": "([a-z_]+)"', cell)
