"""The answer to a WebSocket handshake for a path no socket serves.

Channels' URL router raises on a path it has no route for, which the ASGI
server logs as an unhandled exception and answers with an HTTP 500. This
route comes last instead and refuses the handshake: a close before the
accept, which the server answers with an HTTP 403, as it answers a foreign
origin (config.origins).
"""

from __future__ import annotations

from common.socket_routes import socket_path


async def refuse_handshake(scope, receive, send):
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close"})


# Matches every path: mounted after every other route (config.asgi).
unrouted = [socket_path(r"", refuse_handshake, regex=True)]
