"""The word filter: a short list of words per language, masked with
asterisks wherever they start a word, whatever their case. Every list
applies to every message (the lobby mixes languages). A message that had
something masked still goes out, masked, and counts as an offence
(chat.services): a player who keeps offending is muted by itself, as
lichess's ``shutup`` does.

The lists are deliberately short and plain: they catch the common slurs,
not every spelling; operators and reports do the rest. Add a stem here to
mask every word that starts with it.

Words and messages are compared as they look (``common.lookalikes``: NFKC,
case-folded, Unicode's confusables skeleton, hidden characters left out),
so a zero-width joiner inside a word, fullwidth letters or a Cyrillic "с"
in a Latin word pass no more than the plain spelling; what is masked is
the message's own characters, hidden ones included.
"""

from __future__ import annotations

import re
from functools import cache

from common.lookalikes import skeleton, skeleton_with_origins

WORDS = {
    "en": ["fuck", "shit", "cunt", "bitch", "asshole", "motherfuck", "dickhead"],
    "ka": ["ყლე", "ბოზ", "დედამოტყ", "ტრაკ"],
    "ru": ["хуй", "хуе", "пизд", "блять", "бля", "ебат", "ебан", "сука", "мудак"],
    "tr": ["siktir", "orospu", "amına", "amk", "piç", "yarrak", "göt"],
}


@cache
def _pattern(words: tuple[str, ...]) -> re.Pattern:
    stems = sorted({skeleton(word) for word in words}, key=len, reverse=True)
    return re.compile(
        r"(?<!\w)(?:" + "|".join(map(re.escape, stems)) + r")\w*", re.IGNORECASE
    )


def mask(text: str, words: dict[str, list[str]] | None = None) -> tuple[str, bool]:
    """``text`` with every filtered word masked, and whether any was."""
    every = tuple(w for ws in (words or WORDS).values() for w in ws)
    seen, origins = skeleton_with_origins(text)
    masked = list(text)
    for found in _pattern(every).finditer(seen):
        first, last = origins[found.start()], origins[found.end() - 1]
        masked[first : last + 1] = "*" * (last + 1 - first)
    result = "".join(masked)
    return result, result != text
