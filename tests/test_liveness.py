"""``/health/live/``: the proxy's question whether a web process answers
(config.liveness), answered before Django: no database, no host check."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.testing import ApplicationCommunicator

from config.asgi import application
from config.liveness import Liveness


def ask(app, method: str, path: str, host: bytes = b"web1:8000"):
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", host)],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }

    async def exchange():
        communicator = ApplicationCommunicator(app, scope)
        await communicator.send_input({"type": "http.request", "body": b""})
        start = await communicator.receive_output(timeout=10)
        body = await communicator.receive_output(timeout=10)
        return start["status"], dict(start["headers"]), body["body"]

    return asyncio.run(exchange())


def nothing_behind(scope, receive, send):
    raise AssertionError("the liveness question reached the application")


def test_the_question_never_reaches_django():
    status, headers, body = ask(Liveness(nothing_behind), "GET", "/health/live/")
    assert (status, body) == (200, b'{"status": "ok"}')
    assert headers[b"cache-control"] == b"no-store"


def test_only_get_and_head_are_answered():
    assert ask(Liveness(nothing_behind), "HEAD", "/health/live/")[::2] == (200, b"")
    status, headers, _ = ask(Liveness(nothing_behind), "POST", "/health/live/")
    assert status == 405 and headers[b"allow"] == b"GET, HEAD"


@pytest.mark.django_db
def test_the_site_answers_it_by_any_host_while_health_checks_the_host():
    """The proxy asks by the upstream's address, which ALLOWED_HOSTS need not
    name: the liveness answers it; /health/ refuses that host as every page
    does."""
    assert ask(application, "GET", "/health/live/", b"web1:8000")[0] == 200
    assert ask(application, "GET", "/health/", b"web1:8000")[0] == 400
