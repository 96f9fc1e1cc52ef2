"""The server's start and stop (ASGI lifespan): the process's hall opens
before the first request, so that it takes over unowned games at once, and
gives its games up when the server stops.

Once started, everything loaded so far (Django, the apps, the engine's
tables: hundreds of thousands of objects that live as long as the process)
is moved out of the garbage collector's reach (``gc.freeze``): a full
collection then scans only the objects of the games being played, and
pauses the event loop, and with it every game's moves and timers, for a
fraction of the time.
"""

from __future__ import annotations

import gc
from collections.abc import Awaitable, Callable
from typing import Any

from games.live.hall import hall, stop_hall


async def lifespan(
    scope: dict[str, Any],
    receive: Callable[[], Awaitable[dict[str, Any]]],
    send: Callable[[dict[str, Any]], Awaitable[None]],
) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await hall()
            gc.freeze()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await stop_hall()
            await send({"type": "lifespan.shutdown.complete"})
            return
