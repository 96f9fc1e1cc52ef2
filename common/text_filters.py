"""Template filters every template has (TEMPLATES builtins): Django's own
``capfirst``, made safe for Georgian.

Georgian (Mkhedruli) has no capital letters in running text. Unicode maps
each letter to a Mtavruli capital (U+1C90-U+1CBF) all the same, so Django's
``capfirst`` (``text[0].upper()``) turns "დაბრუნება" into "Დაბრუნება", which
no Georgian writes. Titlecase is what a sentence's first letter needs, and
Unicode's titlecase of a Mkhedruli letter is the letter itself; for the
other scripts it is the capital, as before.

Django's admin, forms and model validation also call
``django.utils.text.capfirst`` from Python (an admin index's model names, a
form field's label); ``use_sentence_start_for_capfirst`` puts
``sentence_start`` in its place there.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import django.utils.text
from django import template
from django.forms.forms import BaseForm
from django.template import defaultfilters
from django.template.defaultfilters import stringfilter
from django.utils import translation

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise
from django.utils.functional import keep_lazy_text

register = template.Library()

DOTTED_I_LANGUAGES = ("tr", "az")


@keep_lazy_text
def sentence_start(text: StrOrPromise) -> str:
    """The text with its first letter as a sentence starts it."""
    text = str(text)
    if not text:
        return text
    # Unicode's default case mapping gives "i" the dotless capital "I";
    # Turkish and Azerbaijani write "İ" (the language-specific mapping of
    # Unicode's SpecialCasing.txt), and "ı" is "I" by the default one.
    language = (translation.get_language() or "").split("-")[0]
    if text[0] == "i" and language in DOTTED_I_LANGUAGES:
        return "İ" + text[1:]
    return text[0].title() + text[1:]


def use_sentence_start_for_capfirst() -> None:
    """Put ``sentence_start`` wherever Django's ``capfirst`` is bound: in
    ``django.utils.text`` for the modules still to be imported, and in every
    module that has already imported it by name (``django.contrib.admin.sites``
    builds the index's model names with it, ``django.db.models.fields`` a
    model form's labels)."""
    # Django's template filter of that name is a function of its own, which
    # the admin's read-only fields label with (django.contrib.admin.helpers).
    originals = {django.utils.text.capfirst, defaultfilters.capfirst}
    originals.discard(sentence_start)
    for module in list(sys.modules.values()):
        if getattr(module, "__dict__", {}).get("capfirst") in originals:
            module.__dict__["capfirst"] = sentence_start


def label_from_verbose_name(
    form: BaseForm, name: str, verbose_name: StrOrPromise
) -> None:
    """Label ``form``'s field ``name`` with ``verbose_name`` as a sentence
    starts it: Django's forms label model fields with its ``capfirst``."""
    form.fields[name].label = sentence_start(verbose_name)


@register.filter(is_safe=True)
@stringfilter
def capfirst(value: str) -> str:
    return sentence_start(value)
