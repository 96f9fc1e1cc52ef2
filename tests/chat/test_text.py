"""What a line becomes before it is stored: the text rules and the word
filter, in every language."""

from __future__ import annotations

import pytest

from chat.text import clean
from chat.wordfilter import mask


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  gg  ", "gg"),
        ("line\nbreak\ttab", "line break tab"),
        ("\u202eevil\u202c", "evil"),
        ("bell\x07 null\x00", "bell null"),
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),
        ("\x00\x1b", ""),
    ],
)
def test_clean(typed, kept):
    assert clean(typed) == kept


@pytest.mark.parametrize(
    ("said", "shown", "caught"),
    [
        ("well played", "well played", False),
        ("FUCKING hell", "******* hell", True),
        ("Scunthorpe is a town", "Scunthorpe is a town", False),
        ("ты сука", "ты ****", True),
        ("siktir git", "****** git", True),
        ("ეს ყლე", "ეს ***", True),
        # Spelled to look the same: a zero-width joiner inside the word,
        # fullwidth letters, a Cyrillic "с" in a Latin word, a Latin "c"
        # in a Cyrillic one; the hidden character is masked with the word.
        ("fu\u200dck off", "***** off", True),
        ("ｆｕｃｋ off", "**** off", True),
        ("fuсk off", "**** off", True),
        ("ты cука", "ты ****", True),
    ],
)
def test_the_word_filter_masks_whole_words_from_their_start(said, shown, caught):
    assert mask(said) == (shown, caught)
