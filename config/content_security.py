"""The Content-Security-Policy of every answer, with django-csp.

The policy itself is in the settings (``CONTENT_SECURITY_POLICY``): nothing
but the site's own files, no inline script or style, no plugin, no other
site framing a page or receiving a form (OWASP's Content Security Policy
Cheat Sheet). This middleware adds the one part that depends on the
request: the site's own WebSocket origin (``ws:`` or ``wss:`` and the
request's host) to ``connect-src``, for the pages' sockets. CSP Level 3
lets ``'self'`` match it already (section 6.7.2.8), as current Chromium and
Firefox do; naming it keeps the sockets open in a browser that does not.

One exception: the HTML pages under /api/, DRF's browsable API and its
login page, may set style attributes (``style-src-attr 'unsafe-inline'``),
which DRF's templates do for a float or a margin here and there. A style
attribute runs no script, and forking those templates to drop a few is
more to keep up than it is worth; their inline <style> and their one
inline event handler, which would need ``'unsafe-inline'`` for whole style
sheets and for scripts, are gone (templates/rest_framework/api.html).

Under DEBUG django-csp leaves the 404 and the 500 without a policy (Django's
debug pages style themselves inline); here they carry it like every other
answer, so that `make run` shows what production does. Those pages then
show unstyled, which is all the policy costs them.
"""

from __future__ import annotations

from dataclasses import asdict

from csp.constants import HEADER, UNSAFE_INLINE
from csp.middleware import CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.exceptions import DisallowedHost

# The answers django-csp leaves without a policy under DEBUG.
DEBUG_PAGES = (404, 500)


def own_socket_origin(request) -> str | None:
    """``ws://host`` (``wss://`` over TLS) of this request; None when the
    host is not one the site serves (a 400 is being answered)."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    return f"{'wss' if request.is_secure() else 'ws'}://{host}"


def is_browsable_api_page(request, response) -> bool:
    """An HTML answer under /api/: DRF's browsable API, its login page."""
    return request.path_info.startswith("/api/") and response.get(
        "Content-Type", ""
    ).startswith("text/html")


def _added(update: dict, directive: str, source: str) -> dict:
    sources = update.get(directive) or ()
    if isinstance(sources, str):
        sources = (sources,)
    return {**update, directive: (*sources, source)}


class ContentSecurityPolicy(CSPMiddleware):
    """django-csp's middleware, with the request's socket origin allowed to
    connect to, and style attributes on the browsable API's pages."""

    def get_policy_parts(self, request, response, report_only=False):
        parts = super().get_policy_parts(request, response, report_only)
        update = dict(parts.update or {})
        origin = own_socket_origin(request)
        if origin is not None:
            update = _added(update, "connect-src", origin)
        if is_browsable_api_page(request, response):
            update = _added(update, "style-src-attr", UNSAFE_INLINE)
        parts.update = update or None
        return parts

    def process_response(self, request, response):
        response = super().process_response(request, response)
        # What django-csp left out for DEBUG's error pages (see above).
        left_out = settings.DEBUG and response.status_code in DEBUG_PAGES
        if left_out and HEADER not in response:
            parts = self.get_policy_parts(request=request, response=response)
            response[HEADER] = build_policy(**asdict(parts))
        return response
