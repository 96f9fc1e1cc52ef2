"""The refusals only a real server makes, each produced on the wire and each
in the documents: a handshake refused for its Origin (HTTP 403), a frame
over the limit (1009), the close code of a refusal at connection as a
browser reads it (4401, not a refused handshake), and, under /api/, a
request uvicorn cannot parse and the throttle, both answered as the API's
JSON. The rest of docs/protocol.md is walked in-process
(tests/games/test_documented_codes.py), the API's codes in
tests/test_documented_errors.py."""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from common.api_errors import API_ERRORS
from games import services
from games.models import Game
from tests.protocol_document import promises

from .support import TableClient

pytestmark = [pytest.mark.timeout(60), pytest.mark.django_db(transaction=True)]


def a_game(first, second) -> Game:
    table = services.table_create(user=first.user, profile="japanese", turn_seconds=120)
    services.seat_take(table_id=table.pk, user=second.user, number=1)
    return Game.objects.get(table=table)


def ws_url(base: str, path: str) -> str:
    return base.replace("http", "ws", 1) + path


async def close_code(ws) -> int | None:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await ws.recv()
    return closed.value.rcvd.code if closed.value.rcvd else None


def test_a_handshake_from_another_site_is_refused_with_http_403(servers, people):
    alice, bob = people(2)
    game = a_game(alice, bob)

    async def handshake():
        with pytest.raises(InvalidStatus) as refused:
            await connect(
                ws_url(servers[0], f"/ws/games/{game.pk}/"),
                origin="https://evil.example",
                additional_headers={"Cookie": f"sessionid={alice.session_key}"},
                proxy=None,
                open_timeout=10,
            )
        return refused.value.response.status_code

    # The only handshake refusal protocol.md lists, and this is it.
    assert promises().handshake == {f"HTTP {asyncio.run(handshake())}"}


def test_an_anonymous_socket_is_opened_then_closed_with_4401(servers, people):
    alice, bob = people(2)
    game = a_game(alice, bob)

    async def anonymous():
        # The handshake succeeds (101), so a browser can read the code.
        async with connect(
            ws_url(servers[0], f"/ws/games/{game.pk}/"),
            origin=servers[0],
            proxy=None,
            open_timeout=10,
        ) as ws:
            return await close_code(ws)

    code = asyncio.run(anonymous())
    assert code == 4401 and code in promises().at_connection


def test_a_frame_over_the_limit_is_closed_with_1009(servers, people):
    alice, bob = people(2)
    game = a_game(alice, bob)

    async def too_much():
        async with TableClient(servers[0], game.pk, alice.session_key) as client:
            await client.ws.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
            return await close_code(client.ws)

    code = asyncio.run(too_much())
    assert code == 1009 and code in promises().later


def raw_request(base: str, request_line: bytes) -> tuple[str, dict, bytes]:
    """Send one request as bytes; its status line, headers and body."""
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as conn:
        conn.sendall(request_line + b"\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines)
    return status, headers, body


@pytest.mark.parametrize(
    "request_line",
    [
        # httptools keeps a URL's offsets in 16 bits: 64 KiB is past them.
        b"GET /api/v1/players/?search=" + b"a" * 100_000 + b" HTTP/1.1",
        b"GET /api/v1/players/?search=\xff HTTP/1.1",
        b"GET /api/v1/pla yers/ HTTP/1.1",
    ],
    ids=["an address of 100,000 characters", "a raw byte", "a space"],
)
def test_a_request_uvicorn_cannot_read_is_the_apis_json_400(servers, request_line):
    status, headers, body = raw_request(servers[0], request_line)
    assert status.startswith("HTTP/1.1 400")
    assert headers["content-type"] == "application/json"
    assert json.loads(body)["code"] == "bad_request" and "bad_request" in API_ERRORS


def test_outside_the_api_uvicorn_keeps_its_own_400(servers):
    status, headers, _ = raw_request(
        servers[0], b"GET /players/?search=" + b"a" * 100_000 + b" HTTP/1.1"
    )
    assert status.startswith("HTTP/1.1 400")
    assert headers["content-type"].startswith("text/plain")


@pytest.mark.slow
def test_a_throttled_client_gets_the_apis_json_429(own_servers):
    _, base = own_servers("throttled", env={"API_THROTTLE_ANON": "3/minute"})
    answers = []
    for _ in range(4):
        try:
            with urllib.request.urlopen(f"{base}/api/v1/players/", timeout=10) as r:
                answers.append((r.status, r.headers["Content-Type"], None, None))
        except urllib.error.HTTPError as error:
            body = json.loads(error.read())
            retry = error.headers["Retry-After"]
            answers.append((error.code, error.headers["Content-Type"], body, retry))
    assert [status for status, *_ in answers] == [200, 200, 200, 429]
    _, content_type, body, retry_after = answers[-1]
    assert content_type == "application/json" and int(retry_after) > 0
    assert body["code"] == "throttled" and API_ERRORS["throttled"][0] == 429


@pytest.mark.slow
def test_a_fresh_server_answers_schema_requests_at_once(own_servers):
    # drf-spectacular's first generations in a process raced one another
    # into a 500 (config.api.SchemaView); a fresh server's first ones here.
    _, base = own_servers("schema")

    def fetch(_):
        try:
            with urllib.request.urlopen(f"{base}/api/v1/schema/", timeout=30) as r:
                return r.status
        except urllib.error.HTTPError as error:
            return error.code

    with ThreadPoolExecutor(6) as pool:
        assert list(pool.map(fetch, range(6))) == [200] * 6
