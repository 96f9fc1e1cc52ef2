"""Text that looks the same: the one comparison of players' names and of the
chat's word filter.

Two strings look alike when their *skeletons* are equal: the string in
Unicode NFKC (fullwidth "ｎ" is "n", "ﬁ" is "fi"), case-folded, then mapped
character by character to the prototype Unicode's confusables table gives
it (Unicode Technical Standard #39, section 4: Cyrillic "с" is Latin "c",
"1" is "l", "rn" is "m"). ICU computes the skeleton (``icu.SpoofChecker``,
from the PyICU wheel), with the table of its Unicode version, so nothing
here is hand-kept data.

*Hidden* characters are those a reader cannot see or that reorder what
they see: Unicode's default-ignorable code points (zero-width space, ZWJ
and ZWNJ, word joiner, soft hyphen, the Hangul fillers, variation
selectors), the bidirectional controls (LRM, RLM, the embeddings,
overrides such as RLO and isolates), and the other format, control,
private-use, surrogate and unassigned code points and line and paragraph
separators. A skeleton leaves them out.
"""

from __future__ import annotations

import threading
import unicodedata

import icu

HIDDEN = icu.UnicodeSet(
    "[[:Default_Ignorable_Code_Point:][:Bidi_Control:][:Cc:][:Cf:][:Co:]"
    "[:Cs:][:Cn:][:Zl:][:Zp:]]"
)
HIDDEN.freeze()

# ICU's checker is safe to share for skeletons, but PyICU wraps it in one
# Python object; a checker per thread keeps threads out of each other's way.
_local = threading.local()


def _checker() -> icu.SpoofChecker:
    checker = getattr(_local, "checker", None)
    if checker is None:
        checker = _local.checker = icu.SpoofChecker()
    return checker


def hidden_characters(text: str) -> list[str]:
    """The hidden characters of ``text`` (as ``U+200B`` names), in order."""
    return [f"U+{ord(c):04X}" for c in text if HIDDEN.contains(c)]


def skeleton(text: str) -> str:
    """What ``text`` looks like: equal for two strings that look alike."""
    shown = "".join(c for c in text if not HIDDEN.contains(c))
    folded = unicodedata.normalize("NFKC", shown).casefold()
    return unicodedata.normalize("NFC", _checker().getSkeleton(0, folded))


def skeleton_with_origins(text: str) -> tuple[str, list[int]]:
    """The skeleton of ``text`` built a character at a time, and for each of
    its characters the index in ``text`` it came from, so that a match found
    in the skeleton can be marked in the text itself. Hidden characters
    give nothing."""
    out: list[str] = []
    origins: list[int] = []
    for index, character in enumerate(text):
        piece = skeleton(character)
        out.append(piece)
        origins.extend([index] * len(piece))
    return "".join(out), origins
