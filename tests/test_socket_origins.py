"""Only the site's own pages open its WebSockets: the Origin of a handshake
must be the site's origin, scheme, host and port (RFC 6454), or one of
CSRF_TRUSTED_ORIGINS (config.origins). Everything else is an HTTP 403."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from config.asgi import application
from config.origins import parse_origin
from tests.serving import serving

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def opens(
    host: str | None, origin: str | None, scheme: str = "ws", extra=()
) -> bool:
    """Whether the lobby's socket opens for a handshake with these headers,
    over a connection of ``scheme`` (ws, or wss: TLS)."""
    headers = [*extra]
    if host is not None:
        headers.append((b"host", host.encode()))
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    socket.scope["scheme"] = scheme
    connected, _ = await socket.connect(timeout=5)
    await socket.disconnect()
    return connected


async def test_the_sites_own_origin_opens_a_socket():
    assert await opens("127.0.0.1:8420", "http://127.0.0.1:8420")
    assert await opens("localhost", "http://localhost")
    assert await opens("127.0.0.1:8420", "https://127.0.0.1:8420", scheme="wss")


async def test_the_same_host_on_another_port_is_another_origin():
    assert not await opens("127.0.0.1:8420", "http://127.0.0.1:9999")
    assert not await opens("127.0.0.1:8420", "http://127.0.0.1")
    assert not await opens("localhost", "http://localhost:8420")


async def test_the_same_host_and_port_under_another_scheme_is_another_origin():
    assert not await opens("127.0.0.1:8420", "https://127.0.0.1:8420")
    assert not await opens("127.0.0.1:8420", "http://127.0.0.1:8420", scheme="wss")
    assert not await opens("127.0.0.1:8420", "ftp://127.0.0.1:8420")


async def test_a_default_port_spelled_out_is_the_same_origin_as_one_left_out():
    assert await opens("localhost", "http://localhost:80")
    assert await opens("localhost:80", "http://localhost")
    assert await opens("localhost", "https://localhost:443", scheme="wss")
    assert await opens("localhost:443", "https://localhost", scheme="wss")
    # The default of the other scheme is not the default.
    assert not await opens("localhost", "http://localhost:443")
    assert not await opens("localhost:443", "http://localhost")


async def test_host_and_scheme_are_compared_without_case():
    assert await opens("LocalHost", "HTTP://localhost")


async def test_a_handshake_without_a_usable_origin_is_refused():
    assert not await opens("localhost", None)
    assert not await opens("localhost", "null")  # a sandboxed page, a file
    assert not await opens("localhost", "http://localhost/lobby/")
    assert not await opens("localhost", "http://user@localhost")
    assert not await opens("localhost", "http://localhost:99999")
    assert not await opens(
        "localhost", "http://localhost", extra=[(b"origin", b"http://localhost")]
    )


async def test_a_host_the_site_does_not_serve_has_no_own_origin():
    # ALLOWED_HOSTS does not serve it, as it serves no page of it either.
    assert not await opens("evil.example", "http://evil.example")
    assert not await opens(None, "http://localhost")


async def test_an_origin_of_csrf_trusted_origins_opens_a_socket(settings):
    settings.CSRF_TRUSTED_ORIGINS = [
        "https://play.example",
        "http://127.0.0.1:9000",
        "https://*.wild.example",
    ]
    assert await opens("localhost", "https://play.example")
    assert await opens("localhost", "https://play.example:443")
    assert await opens("localhost:8420", "http://127.0.0.1:9000")
    assert not await opens("localhost", "http://play.example")
    assert not await opens("localhost", "https://play.example:8443")
    assert not await opens("localhost", "https://www.play.example")
    assert not await opens("localhost", "http://127.0.0.1:9001")
    # No wildcards (OWASP: an allow-list of exact origins).
    assert not await opens("localhost", "https://a.wild.example")


async def test_behind_a_tls_proxy_the_scheme_is_the_one_the_settings_trust(settings):
    proto = (b"x-forwarded-proto", b"https")
    # Without SECURE_PROXY_SSL_HEADER the header is anybody's to send.
    assert not await opens("pulka.example", "https://pulka.example", extra=[proto])
    settings.ALLOWED_HOSTS = ["pulka.example"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert await opens("pulka.example", "https://pulka.example", extra=[proto])
    assert not await opens("pulka.example", "http://pulka.example", extra=[proto])
    # Where the header is absent the connection's own scheme counts.
    assert await opens("pulka.example", "http://pulka.example")
    plain = (b"x-forwarded-proto", b"http")
    assert not await opens("pulka.example", "https://pulka.example", extra=[plain])


async def test_origins_compare_as_rfc_6454_says():
    assert parse_origin("http://Example.COM") == ("http", "example.com", 80)
    assert parse_origin("https://example.com:443") == ("https", "example.com", 443)
    assert parse_origin("http://[::1]:8000") == ("http", "::1", 8000)
    assert parse_origin("null") is None
    assert parse_origin("ws://example.com") is None


# On a real server, as a browser's page meets it.


async def handshake_status(url: str, origin: str, headers=None) -> int:
    try:
        async with connect(
            url, origin=origin, additional_headers=headers, proxy=None, open_timeout=10
        ):
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


async def test_a_server_refuses_a_page_of_the_same_host_on_another_port(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["http://localhost:9999"]
    async with serving() as base:
        port = int(base.rsplit(":", 1)[1])
        url = f"ws://127.0.0.1:{port}/ws/lobby/"
        statuses = await asyncio.gather(
            handshake_status(url, base),
            handshake_status(url, "http://127.0.0.1:9999"),
            handshake_status(url, f"https://127.0.0.1:{port}"),
            handshake_status(url, f"http://localhost:{port}"),
            handshake_status(url, "http://localhost:9999"),
        )
    assert statuses == [101, 403, 403, 403, 101]


async def test_behind_a_trusted_tls_proxy_the_pages_are_https(settings):
    # A TLS proxy reaches the server over plain ws: and says so in
    # X-Forwarded-Proto, believed from PULKA_TRUSTED_PROXIES alone.
    async with serving() as base:
        port = int(base.rsplit(":", 1)[1])
        url = f"ws://127.0.0.1:{port}/ws/lobby/"

        async def status(origin: str) -> int:
            return await handshake_status(url, origin, {"X-Forwarded-Proto": "https"})

        https, http = f"https://127.0.0.1:{port}", f"http://127.0.0.1:{port}"
        assert (await status(https), await status(http)) == (403, 101)
        settings.PULKA_TRUSTED_PROXIES = ["127.0.0.1"]
        assert (await status(https), await status(http)) == (101, 403)
