"""uvicorn serving the site inside the test's own process and event loop.

Configured as every server command line configures it (config.limits), so
that a test meets what a browser meets, while the server's log reaches
caplog and the test's settings apply to it.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import uvicorn

from config.limits import uvicorn_options
from tests.processes import free_port


@asynccontextmanager
async def serving(application=None):
    """Serve ``application`` (the site's by default) on a free port of
    127.0.0.1; yields its base URL, ``http://127.0.0.1:<port>``."""
    if application is None:
        from config.asgi import application
    port = free_port()
    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=port,
        lifespan="off",
        # The test's logging as it is: records go to the root logger.
        log_config=None,
        **uvicorn_options(),
    )
    server = uvicorn.Server(config)
    task = asyncio.get_running_loop().create_task(server.serve())
    try:
        while not server.started:
            if task.done():
                task.result()  # raises what stopped it
                raise RuntimeError("uvicorn stopped before it started")
            await asyncio.sleep(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
