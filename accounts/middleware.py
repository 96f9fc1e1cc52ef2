"""Activate the signed-in user's chosen language for each request."""

from __future__ import annotations

from django.utils import translation
from django.utils.deprecation import MiddlewareMixin

from accounts.selectors import language_of


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
