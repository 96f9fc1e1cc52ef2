"""What a typed line becomes before it is stored: control characters out,
the ends stripped, and the length checked. Pure: no database, no settings."""

from __future__ import annotations

import re
import unicodedata

# Line breaks and tabs become spaces: a message is one line.
_SPACES = re.compile(r"[\t\n\r\v\f\u2028\u2029]+")


def _kept(char: str) -> bool:
    """Control (Cc) and format (Cf) characters go: the latter include the
    bidirectional overrides that turn a line around on the reader's screen.
    The zero-width joiner stays, for emoji sequences."""
    return char == "\u200d" or unicodedata.category(char) not in ("Cc", "Cf")


def clean(text: str) -> str:
    """``text`` without control characters, on one line, stripped."""
    text = _SPACES.sub(" ", text)
    return "".join(char for char in text if _kept(char)).strip()
