"""Template filters every template has (TEMPLATES builtins): Django's own
``capfirst``, made safe for Georgian.

Georgian (Mkhedruli) has no capital letters in running text. Unicode maps
each letter to a Mtavruli capital (U+1C90-U+1CBF) all the same, so Django's
``capfirst`` (``text[0].upper()``) turns "დაბრუნება" into "Დაბრუნება", which
no Georgian writes. Titlecase is what a sentence's first letter needs, and
Unicode's titlecase of a Mkhedruli letter is the letter itself; for the
other scripts it is the capital, as before.
"""

from __future__ import annotations

from django import template
from django.template.defaultfilters import stringfilter
from django.utils.functional import keep_lazy_text

register = template.Library()


@keep_lazy_text
def sentence_start(text: str) -> str:
    """The text with its first letter as a sentence starts it."""
    text = str(text)
    if not text:
        return text
    return text[0].title() + text[1:]


def label_from_verbose_name(form, name: str, verbose_name) -> None:
    """Label ``form``'s field ``name`` with ``verbose_name`` as a sentence
    starts it: Django's forms label model fields with its ``capfirst``."""
    form.fields[name].label = sentence_start(verbose_name)


@register.filter(is_safe=True)
@stringfilter
def capfirst(value: str) -> str:
    return sentence_start(value)
