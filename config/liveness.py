"""``/health/live/``: whether this web process answers at all, for the proxy.

The proxy in front of several web processes (docker/Caddyfile) asks each one
every second and sends nothing to one that does not answer, so that a
process that died or hangs costs the players no error page. The question is
the process's alone: ``/health/`` also asks the database, the cache and the
broker, and a proxy that took every process out while PostgreSQL is away
would refuse the pages and sockets that can still answer (the live games
wait on the database with their own codes, docs/protocol.md).

It is answered here, before Django: no database, no session, no host check
(the proxy asks by the upstream's own address, which ALLOWED_HOSTS need not
name), and nothing in the answer but that the event loop ran it.
"""

from __future__ import annotations

PATH = "/health/live/"
BODY = b'{"status": "ok"}'


class Liveness:
    """ASGI middleware answering ``GET``/``HEAD /health/live/`` itself."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"] != PATH:
            await self.application(scope, receive, send)
            return
        allowed = scope["method"] in ("GET", "HEAD")
        body = BODY if allowed else b'{"status": "method_not_allowed"}'
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"),
        ]
        if not allowed:
            headers.append((b"allow", b"GET, HEAD"))
        await send(
            {
                "type": "http.response.start",
                "status": 200 if allowed else 405,
                "headers": headers,
            }
        )
        await send(
            {
                "type": "http.response.body",
                "body": b"" if scope["method"] == "HEAD" else body,
            }
        )
