"""The player's time zone: named in the profile, else the one the browser
reports (``static/js/timezone.js`` keeps it in a cookie), else UTC.

Zones are IANA time-zone database names ("Asia/Tbilisi"), checked against
the names ``zoneinfo`` knows: a cookie is the browser's to write, so
anything else in it is ignored.
"""

from __future__ import annotations

import functools
import zoneinfo
from typing import TYPE_CHECKING
from urllib.parse import unquote

from babel import Locale, UnknownLocaleError
from babel.dates import get_timezone_location
from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# Written by static/js/timezone.js; read by accounts.middleware.
COOKIE_NAME = "pulka_tz"
# IANA names are at most 30 characters long; a longer cookie is not read.
MAX_LENGTH = 64


@functools.cache
def zone_names() -> frozenset[str]:
    """Every zone name this system's time-zone database knows."""
    return frozenset(zoneinfo.available_timezones())


# The picker's groups: a zone's region is the first part of its name; the
# rest (UTC, Etc/GMT+5, the old names such as US/Eastern) are "Other".
REGIONS = {
    "Africa": _("Africa"),
    "America": _("Americas"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic Ocean"),
    "Australia": _("Australia"),
    "Europe": _("Europe"),
    "Indian": _("Indian Ocean"),
    "Pacific": _("Pacific Ocean"),
}
OTHER = _("Other")


def zone_choices(
    language: str | None = None,
) -> list[tuple[StrOrPromise, list[tuple[str, str]]]]:
    """Every zone, grouped by region in the order of ``REGIONS`` (then
    "Other"), for a select's option groups: each zone labelled with its
    city in ``language`` (the active one by default) where Babel (the
    Unicode CLDR's names) has it, followed by its English name when that
    differs, so that either finds it."""
    language = language or get_language() or "en"
    groups: dict[str, list[tuple[str, str]]] = {}
    for name, label in _zone_labels(language):
        region = name.split("/", 1)[0] if "/" in name else ""
        groups.setdefault(region if region in REGIONS else "", []).append((name, label))
    ordered: list[tuple[StrOrPromise, list[tuple[str, str]]]] = [
        (REGIONS[key], groups[key]) for key in REGIONS if key in groups
    ]
    if "" in groups:
        ordered.append((OTHER, groups[""]))
    return ordered


@functools.cache
def _zone_labels(language: str) -> tuple[tuple[str, str], ...]:
    try:
        locale = Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        locale = Locale("en")
    labels = []
    for name in zone_names():
        english = name.rsplit("/", 1)[-1].replace("_", " ")
        if "/" in name and not name.startswith("Etc/"):
            city = get_timezone_location(name, locale=locale, return_city=True)
        else:
            city = english
        label = city if city == english else f"{city} ({english})"
        labels.append((name, label))
    return tuple(sorted(labels, key=lambda item: (item[1].casefold(), item[0])))


def zone_from_cookie(value: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone the browser's cookie names. The script URL-encodes the name
    ("Asia%2FTbilisi"), as a cookie value may not hold every character."""
    if not value or len(value) > MAX_LENGTH:
        return None
    return zone_named(unquote(value))


def zone_named(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone called ``name``, or None for a name that is not one."""
    if not name or len(name) > MAX_LENGTH or name not in zone_names():
        return None
    return zoneinfo.ZoneInfo(name)


class ZoneSelect(forms.Select):
    """The time-zone picker: grouped by region, with a search box above it
    (``static/js/zone_search.js``, loaded by every page and by the admin's
    profile form)."""

    def __init__(self, attrs=None, choices=()):
        attrs = {"data-zone-search": _("Find a time zone"), **(attrs or {})}
        super().__init__(attrs, choices)

    class Media:
        js = ["js/zone_search.js"]
