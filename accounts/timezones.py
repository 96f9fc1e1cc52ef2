"""The player's time zone: named in the profile, else the one the browser
reports (``static/js/timezone.js`` keeps it in a cookie), else UTC.

Zones are IANA time-zone database names ("Asia/Tbilisi"), checked against
the names ``zoneinfo`` knows: a cookie is the browser's to write, so
anything else in it is ignored.
"""

from __future__ import annotations

import functools
import zoneinfo
from urllib.parse import unquote

# Written by static/js/timezone.js; read by accounts.middleware.
COOKIE_NAME = "pulka_tz"
# IANA names are at most 30 characters long; a longer cookie is not read.
MAX_LENGTH = 64


@functools.cache
def zone_names() -> frozenset[str]:
    """Every zone name this system's time-zone database knows."""
    return frozenset(zoneinfo.available_timezones())


def zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(zone_names())]


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
