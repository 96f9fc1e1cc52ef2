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


# What an /api/ refusal made outside the API's views says, by status: the
# same codes as DRF's (common.api_errors.API_ERRORS), the 400 as the NUL
# refusal's. A 500, or any other status, is a fault rather than a refusal
# and is not in API_ERRORS: still JSON, and counted by scripts/api_fuzz.py.
REFUSALS_BY_STATUS = {
    400: ("bad_request", "the request could not be read"),
    403: ("permission_denied", "you may not do this"),
    404: ("not_found", "no such API address"),
    405: ("method_not_allowed", "this address does not take that method"),
    500: ("server_error", "the server failed to answer; try again later"),
    503: ("unavailable", "the database cannot be reached just now; try again"),
}


class ApiAnswersJson(MiddlewareMixin):
    """Every answer under /api/ is JSON ``{"code", "detail"}``, those refused
    before or beside the API's views too: a bad Host header or too many
    query fields (Django's 400), a CSRF failure or a method refused by a
    plain Django view (the browsable API's login and logout pages), a 500.
    First in the chain, so that it words the answers of all the others. The
    browsable API's HTML, asked for with ``Accept: text/html``, is left as
    it is: DRF chose it by content negotiation."""

    def process_response(self, request, response):
        if (
            response.status_code < 400
            or not request.path.startswith("/api/")
            or response.get("Content-Type", "").startswith("application/json")
            or getattr(response, "accepted_renderer", None) is not None
        ):
            return response
        code, detail = REFUSALS_BY_STATUS.get(
            response.status_code, ("error", response.reason_phrase.lower())
        )
        answer = JsonResponse(
            {"code": code, "detail": detail}, status=response.status_code
        )
        for name, value in response.items():
            if name.lower() not in ("content-type", "content-length"):
                answer[name] = value
        answer.cookies = response.cookies
        return answer
