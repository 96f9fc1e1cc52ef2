"""Limits that the settings share with the server command lines, which are
put together before Django is set up."""

# The largest WebSocket frame a client may send, in bytes. uvicorn refuses a
# larger one itself (closing with 1009) before buffering it.
MAX_FRAME_BYTES = 4096


def uvicorn_options() -> dict:
    """The site's settings of uvicorn, as ``uvicorn.Config`` takes them."""
    # The WebSocket implementation, named: uvicorn's sans-I/O one over the
    # websockets library. It stops reading a connection as soon as a read
    # has brought a frame the application has not taken yet, so a flood
    # waits in the client's own buffers and a socket that closes leaves at
    # most one read's frames behind (dropped unread: games.socket_limits).
    # It also spends about a fifth less CPU per frame than the older
    # implementation (benchmarks/README.md, live_tables).
    #
    # The HTTP implementation: uvicorn's httptools one, answering a request
    # it cannot parse with the API's JSON under /api/ (config.http_protocol).
    #
    # No proxy headers: uvicorn would otherwise take X-Forwarded-For and
    # X-Forwarded-Proto from any peer on 127.0.0.1, so that anyone on the
    # machine could name their own address to the login lockout and the
    # throttles. The application trusts them from the proxies its settings
    # name, and from no one else (config.forwarded, PULKA_TRUSTED_PROXIES).
    return {
        "ws": "websockets-sansio",
        "ws_max_size": MAX_FRAME_BYTES,
        "http": "config.http_protocol:JsonRefusalsProtocol",
        "proxy_headers": False,
    }


def uvicorn_limits() -> list[str]:
    """``uvicorn_options`` as uvicorn's command line gives them."""
    options = uvicorn_options()
    return [
        "--ws",
        options["ws"],
        "--ws-max-size",
        str(options["ws_max_size"]),
        "--http",
        options["http"],
        *([] if options["proxy_headers"] else ["--no-proxy-headers"]),
    ]
