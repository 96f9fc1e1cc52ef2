"""A WebSocket handshake for a path no socket serves is refused with an
HTTP 403, as a foreign origin's is, signed in or not, and leaves no
traceback in the server's log (config.asgi)."""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import sync_to_async
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.factories import UserFactory
from tests.live.support import session_cookie
from tests.serving import serving

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

UNROUTED = ["/ws/games/abc/", "/ws/me", "/ws/nope/", "/ws/", "/"]


async def handshake_status(url: str, origin: str, cookie: str | None) -> int:
    headers = {"Cookie": f"sessionid={cookie}"} if cookie else None
    try:
        async with connect(
            url, origin=origin, additional_headers=headers, proxy=None, open_timeout=10
        ):
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


async def test_an_unrouted_socket_path_is_refused_without_a_traceback(caplog):
    caplog.set_level(logging.INFO)
    user = await sync_to_async(UserFactory)()
    cookie = await sync_to_async(session_cookie)(user)
    async with serving() as base:
        ws = base.replace("http", "ws", 1)
        statuses = {
            (path, signed_in): await handshake_status(
                f"{ws}{path}", base, cookie if signed_in else None
            )
            for path in UNROUTED
            for signed_in in (False, True)
        }
        # The routed paths still open.
        assert await handshake_status(f"{ws}/ws/me/", base, cookie) == 101
    assert set(statuses.values()) == {403}, statuses
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not errors, [r.getMessage() for r in errors]
