"""The client's address and scheme, behind the proxies the settings trust.

A proxy tells the server who it forwards for: X-Forwarded-For lists the
addresses a request came through, each proxy appending the address it was
reached from, and X-Forwarded-Proto the scheme the first proxy was reached
by. Any client can send either header itself, so they are believed only
from a peer in ``PULKA_TRUSTED_PROXIES`` (addresses and networks; empty by
default, so that nobody's are). From such a peer the client is the
rightmost address of X-Forwarded-For that is not itself a trusted proxy:
each trusted proxy vouches for the address it appended, and whatever stands
left of the first address no trusted proxy vouches for is the client's own
claim (MDN's X-Forwarded-For, "Selecting an IP address").

uvicorn's ``ProxyHeadersMiddleware`` does exactly that. The application
applies it, with the settings' list, in front of HTTP and WebSockets alike
(``config.asgi``); the server's own copy is turned off (``--no-proxy-headers``,
``config.limits``), for uvicorn's default believes the headers from
127.0.0.1, which is anyone on the machine.

Everything that reads the client's address then reads the connection's,
``REMOTE_ADDR``: the login lockout (``AXES_CLIENT_IP_CALLABLE``), the API's
throttles (``NUM_PROXIES = 0``), the server's access log.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware


def proxy_networks(values: list[str]) -> list[str]:
    """``PULKA_TRUSTED_PROXIES`` checked: each an IP address or network.
    Nothing else is taken, a ``*`` least of all: trusting everybody would
    make the leftmost address, the client's own claim, the client."""
    for value in values:
        try:
            # Strict, as uvicorn reads it: 10.0.0.1/8 is no network.
            ipaddress.ip_network(value)
        except ValueError:
            raise ImproperlyConfigured(
                f"PULKA_TRUSTED_PROXIES: {value!r} is not an IP address or network"
            ) from None
    return values


class TrustedProxyHeaders:
    """ASGI middleware: the scope's client and scheme as the trusted proxies
    forwarded them (above); the connection's own from anybody else."""

    def __init__(self, application):
        self.application = application
        self.proxies: tuple[str, ...] = ()
        self.behind_proxies = application

    async def __call__(self, scope, receive, send):
        proxies = tuple(settings.PULKA_TRUSTED_PROXIES)
        if not proxies:
            return await self.application(scope, receive, send)
        if proxies != self.proxies:
            self.proxies = proxies
            self.behind_proxies = ProxyHeadersMiddleware(
                self.application, trusted_hosts=list(proxies)
            )
        return await self.behind_proxies(scope, receive, send)


def client_address(request) -> str | None:
    """The client's address, for django-axes: the connection's, as
    ``TrustedProxyHeaders`` left it."""
    return request.META.get("REMOTE_ADDR")
