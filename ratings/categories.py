"""Rating categories: which games count towards which rating.

A game is rated in a category only when its table plays exactly that
category's standard preset. Any other option (a different hisht penalty, no
deductions, another Japanese target, another profile) makes it unranked, so
that every rating in a category measures the same game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from joker import BadRecord, make_rules

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True, slots=True)
class Category:
    slug: str
    label: StrOrPromise
    profile: str
    # The options as given to ``make_rules``; ``options`` below is their
    # normalised form, with every default spelled out.
    given: dict = field(hash=False, compare=False)

    @property
    def options(self) -> dict:
        return dict(make_rules(self.profile, self.given).options)

    @property
    def players(self) -> int:
        return make_rules(self.profile, self.given).players

    @property
    def pairs(self) -> bool:
        return make_rules(self.profile, self.given).pairs


CATEGORIES: dict[str, Category] = {
    c.slug: c
    for c in (
        Category("joker", _("Joker"), "georgian-club", {}),
        Category(
            "joker-nines", _("Joker, nines"), "georgian-club", {"schedule": "nines"}
        ),
        Category("joker-pairs", _("Joker in pairs"), "georgian-club", {"pairs": True}),
        Category("japanese", _("Japanese Joker"), "japanese", {"target": 21}),
    )
}
CATEGORY_CHOICES = [(slug, c.label) for slug, c in CATEGORIES.items()]
DEFAULT_CATEGORY = "joker"


def get(slug: str) -> Category:
    """The category called ``slug`` (``KeyError`` when there is none)."""
    return CATEGORIES[slug]


def preset(category: str) -> tuple[str, dict]:
    """The profile and the normalised options that a table of ``category``
    plays; ``KeyError`` for an unknown category."""
    c = CATEGORIES[category]
    return c.profile, c.options


def category_of(profile: str, options: dict | None) -> str | None:
    """The category whose preset ``profile`` and ``options`` are, or None when
    they are not exactly a preset (unranked) or not valid at all."""
    try:
        normalised = make_rules(profile, options).options
    except BadRecord:
        return None
    for slug, c in CATEGORIES.items():
        if c.profile == profile and c.options == normalised:
            return slug
    return None
