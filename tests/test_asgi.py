"""The ASGI application: HTTP through Django, WebSockets through Channels."""

import pytest
from asgiref.sync import async_to_sync
from channels.routing import ProtocolTypeRouter
from channels.testing import HttpCommunicator, WebsocketCommunicator

from config.asgi import application


def test_application_routes_http_websocket_and_the_servers_lifespan():
    assert isinstance(application, ProtocolTypeRouter)
    mapping = application.application_mapping
    assert set(mapping) == {"http", "websocket", "lifespan"}


def test_http_request_through_asgi():
    async def request():
        communicator = HttpCommunicator(
            application, "GET", "/api/v1/", headers=[(b"host", b"localhost")]
        )
        return await communicator.get_response()

    response = async_to_sync(request)()

    assert response["status"] == 200
    assert b'"me"' in response["body"]


# Channels consumers close stale database connections around every message,
# so even a refused connection needs database access in tests.
@pytest.mark.django_db(transaction=True)
def test_websocket_from_a_foreign_origin_is_refused():
    """The lobby's socket, routed and open to anyone, opens from the site's
    own page and not from another origin's: the origin check refuses it."""

    async def opens(origin: str) -> bool:
        communicator = WebsocketCommunicator(
            application,
            "/ws/lobby/",
            headers=[(b"host", b"localhost"), (b"origin", origin.encode())],
        )
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        return connected

    assert async_to_sync(opens)("http://localhost") is True
    assert async_to_sync(opens)("https://evil.example") is False
