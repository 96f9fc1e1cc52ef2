"""Limits that the settings share with the server command lines, which are
put together before Django is set up."""

# The largest WebSocket frame a client may send, in bytes. uvicorn refuses a
# larger one itself (closing with 1009) before buffering it.
MAX_FRAME_BYTES = 4096

# The frames uvicorn holds for a socket that the application has not read
# yet. When they are all taken it stops reading the connection, so a flood
# waits in the client's own buffers, and once a socket is closed at most
# this many of its frames are left to drop (unread: games.socket_limits).
MAX_QUEUED_FRAMES = 32


def uvicorn_limits() -> list[str]:
    # The websockets implementation, named: it is the one that bounds its
    # queue of received frames.
    return [
        "--ws",
        "websockets",
        "--ws-max-size",
        str(MAX_FRAME_BYTES),
        "--ws-max-queue",
        str(MAX_QUEUED_FRAMES),
    ]
