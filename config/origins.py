"""Which pages may open the site's WebSockets: its own, by their origin.

A browser sends the site's cookies with a WebSocket handshake whatever page
opens it, and the page then reads the socket: a page of another origin that
opened one would read the player's hand (cross-site WebSocket hijacking).
The handshake's Origin header names the origin of the page, which the page
cannot change, and OWASP's WebSocket Security Cheat Sheet asks for it to be
checked on every handshake against an allow-list of whole origins. An
origin is a scheme, a host and a port (RFC 6454, section 4; a port left out
is the scheme's default, 80 for http and 443 for https), compared whole
(section 5): http://127.0.0.1:9999 and https://127.0.0.1:8420 are other
origins than http://127.0.0.1:8420, whatever host names they share.

The origins allowed:

* the site's own: the handshake's Host header, when ``ALLOWED_HOSTS``
  serves it, with the scheme of the pages that go with the socket's (http
  for ws, https for wss). The socket's scheme is found as Django finds a
  request's (``HttpRequest.is_secure``): from ``SECURE_PROXY_SSL_HEADER``
  when the settings name it and the handshake has that header, else from
  the connection's, which ``config.forwarded`` takes from a trusted
  proxy's X-Forwarded-Proto (``PULKA_TRUSTED_PROXIES``) and from nobody
  else's;
* each origin of ``CSRF_TRUSTED_ORIGINS``, scheme and all. One with a
  wildcard (``https://*.example.com``, which Django's CSRF check reads as
  any subdomain) is not taken here: OWASP asks for exact origins.

A handshake without an Origin header is refused too, as the cheat sheet's
allow-list refuses it: every browser sends one (RFC 6455, section 4.1),
and the project's own clients (tests, benchmarks, scripts) name the site's
origin as a browser would. A refusal is an HTTP 403 and no socket, the one
refusal docs/protocol.md lists at the handshake.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host

# RFC 6454, section 4: the port of an origin whose URI names none.
DEFAULT_PORTS = {"http": 80, "https": 443}

Origin = tuple[str, str, int]


def parse_origin(text: str) -> Origin | None:
    """``text`` as an origin (scheme, host, port), lowercased and with the
    scheme's default port filled in; None for anything that is not an http
    or https origin: the "null" of a sandboxed page or a file, an address
    with a path, user information, a bad port."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if (
        scheme not in DEFAULT_PORTS
        or not parts.hostname
        or "@" in parts.netloc
        or parts.path
        or parts.query
        or parts.fragment
    ):
        return None
    if port is None:
        port = DEFAULT_PORTS[scheme]
    return scheme, parts.hostname.lower(), port


def _headers(scope, name: bytes) -> list[str]:
    return [value.decode("latin-1") for key, value in scope["headers"] if key == name]


def socket_is_secure(scope) -> bool:
    """Whether the socket came over TLS, as Django's ``is_secure`` decides
    it for a request."""
    if settings.SECURE_PROXY_SSL_HEADER:
        meta_name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        # Django's META name of a header (HTTP_X_FORWARDED_PROTO) and the
        # header's own (x-forwarded-proto).
        name = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        values = _headers(scope, name)
        if values:
            return values[0].split(",", 1)[0].strip() == secure_value
    return scope.get("scheme") == "wss"


def own_origin(scope) -> Origin | None:
    """The origin of the site's pages for this handshake: its Host with the
    scheme that goes with the socket's; None when the Host is missing or
    not one of ``ALLOWED_HOSTS``."""
    hosts = _headers(scope, b"host")
    if len(hosts) != 1:
        return None
    domain, _ = split_domain_port(hosts[0])
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        # What Django's get_host allows then.
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    if not domain or not validate_host(domain, allowed):
        return None
    scheme = "https" if socket_is_secure(scope) else "http"
    return parse_origin(f"{scheme}://{hosts[0]}")


def trusted_origins() -> set[Origin]:
    """``CSRF_TRUSTED_ORIGINS`` as origins, those with a wildcard left out."""
    return {
        origin
        for text in settings.CSRF_TRUSTED_ORIGINS
        if "*" not in text and (origin := parse_origin(text)) is not None
    }


def origin_allowed(scope) -> bool:
    """Whether the page that opens this socket is one of the site's."""
    origins = _headers(scope, b"origin")
    if len(origins) != 1:
        return False
    origin = parse_origin(origins[0])
    if origin is None:
        return False
    return origin == own_origin(scope) or origin in trusted_origins()


class AllowedOriginsOnly:
    """ASGI middleware: a WebSocket handshake from a page of an origin not
    allowed (above) is refused with HTTP 403, before anything else runs."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            await receive()  # the client's websocket.connect
            # A close before the accept: the ASGI server answers HTTP 403.
            await send({"type": "websocket.close"})
            return None
        return await self.application(scope, receive, send)
