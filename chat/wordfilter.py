"""The word filter: a short list of words per language, masked with
asterisks wherever they start a word, whatever their case. Every list
applies to every message (the lobby mixes languages). A message that had
something masked still goes out, masked, and counts as an offence
(chat.services): a player who keeps offending is muted by itself, as
lichess's ``shutup`` does.

The lists are deliberately short and plain: they catch the common slurs,
not every spelling; operators and reports do the rest. Add a stem here to
mask every word that starts with it.
"""

from __future__ import annotations

import re
from functools import cache

WORDS = {
    "en": ["fuck", "shit", "cunt", "bitch", "asshole", "motherfuck", "dickhead"],
    "ka": ["ყლე", "ბოზ", "დედამოტყ", "ტრაკ"],
    "ru": ["хуй", "хуе", "пизд", "блять", "бля", "ебат", "ебан", "сука", "мудак"],
    "tr": ["siktir", "orospu", "amına", "amk", "piç", "yarrak", "göt"],
}


@cache
def _pattern(words: tuple[str, ...]) -> re.Pattern:
    stems = sorted(words, key=len, reverse=True)
    return re.compile(
        r"(?<!\w)(?:" + "|".join(map(re.escape, stems)) + r")\w*", re.IGNORECASE
    )


def mask(text: str, words: dict[str, list[str]] | None = None) -> tuple[str, bool]:
    """``text`` with every filtered word masked, and whether any was."""
    every = tuple(w for ws in (words or WORDS).values() for w in ws)
    masked, count = _pattern(every).subn(lambda m: "*" * len(m.group()), text)
    return masked, count > 0
