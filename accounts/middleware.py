"""Activate the signed-in user's chosen language, and the player's time
zone, for each request."""

from __future__ import annotations

from django.utils import timezone, translation
from django.utils.deprecation import MiddlewareMixin

from accounts import timezones
from accounts.selectors import language_of, time_zone_of


class UserLanguageMiddleware(MiddlewareMixin):
    """Runs after AuthenticationMiddleware (and LocaleMiddleware): a language
    chosen in the profile wins over the cookie and the browser's. (On
    ``MiddlewareMixin``, so an async view after it does not hold the shared
    thread: see ``config.middleware``.)"""

    def process_request(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = language_of(user)
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = translation.get_language()


class UserTimeZoneMiddleware(MiddlewareMixin):
    """Show times in the player's zone: the profile's, else the browser's
    (the ``pulka_tz`` cookie), else UTC. Runs after AuthenticationMiddleware.
    The zone is activated for this request only: a thread serves others."""

    def process_request(self, request):
        name = ""
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            name = time_zone_of(user)
        zone = timezones.zone_named(name) or timezones.zone_from_cookie(
            request.COOKIES.get(timezones.COOKIE_NAME)
        )
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)

    def process_response(self, request, response):
        timezone.deactivate()
        return response
