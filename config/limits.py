"""Limits that the settings share with the server command lines, which are
put together before Django is set up."""

# The largest WebSocket frame a client may send, in bytes. uvicorn refuses a
# larger one itself (closing with 1009) before buffering it.
MAX_FRAME_BYTES = 4096


def uvicorn_limits() -> list[str]:
    return ["--ws-max-size", str(MAX_FRAME_BYTES)]
