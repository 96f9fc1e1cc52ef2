"""Activate the signed-in user's chosen language for each request."""

from __future__ import annotations

from django.utils import translation

from accounts.selectors import language_of


class UserLanguageMiddleware:
    """Runs after AuthenticationMiddleware (and LocaleMiddleware): a language
    chosen in the profile wins over the cookie and the browser's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = language_of(user)
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
