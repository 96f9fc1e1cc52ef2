"""Template filters every template has (TEMPLATES builtins): a time as the
player reads it, in their zone and with the zone named."""

from __future__ import annotations

from django import template
from django.template.defaultfilters import date
from django.utils import timezone

register = template.Library()


@register.filter(expects_localtime=True)
def zoned(value, arg: str = "DATETIME_FORMAT") -> str:
    """``value`` formatted as ``date:arg`` does (in the active zone, which
    ``accounts.middleware.UserTimeZoneMiddleware`` sets), followed by the
    zone's name: "5 March 2027, 18:00 (Asia/Tbilisi)"."""
    if not value:
        return ""
    return f"{date(value, arg)} ({timezone.get_current_timezone_name()})"
