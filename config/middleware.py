"""Middleware of the whole site. Each can run in an asynchronous chain.

Under ASGI a synchronous middleware runs on the one thread that synchronous
code shares, and holds it for as long as everything after it takes, async
views included. Django's ``MiddlewareMixin`` runs only the quick
``process_request`` step there and awaits the rest, so these are written on
it.
"""

from __future__ import annotations

from django.http import HttpResponseBadRequest, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(MiddlewareMixin):
    """WhiteNoise's static files, looked up as its own middleware does; any
    other request goes on without holding the shared thread (WhiteNoise's
    middleware is synchronous only)."""

    def __init__(self, get_response):
        super().__init__(get_response)
        self.whitenoise = WhiteNoiseMiddleware(get_response)

    def process_request(self, request):
        whitenoise = self.whitenoise
        if whitenoise.autorefresh:
            static_file = whitenoise.find_file(request.path_info)
        else:
            static_file = whitenoise.files.get(request.path_info)
        if static_file is None:
            return None
        return whitenoise.serve(static_file, request)


NUL_DETAIL = "a NUL character (%00) is not allowed in a path or a query"


class RefuseNulCharacters(MiddlewareMixin):
    """A path or query string with a NUL character is a 400 before any view
    sees it: PostgreSQL cannot compare text holding one, so it would
    otherwise fail deep in a query as a 500."""

    def process_request(self, request):
        query = request.GET
        if "\x00" not in request.path and not any(
            "\x00" in key or any("\x00" in value for value in values)
            for key, values in query.lists()
        ):
            return None
        if request.path.startswith("/api/"):
            return JsonResponse(
                {"code": "bad_request", "detail": NUL_DETAIL}, status=400
            )
        return HttpResponseBadRequest(NUL_DETAIL, content_type="text/plain")
