"""The server's start and stop (ASGI lifespan): the process's hall opens
before the first request, so that it takes over unowned games at once, and
gives its games up when the server stops."""

from __future__ import annotations

from games.live.hall import hall, stop_hall


async def lifespan(scope, receive, send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await hall()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await stop_hall()
            await send({"type": "lifespan.shutdown.complete"})
            return
