"""A finished socket's channel is let go in the channel layer, however its
consumer stopped (``common.channel_layer.release_channel``)."""

from __future__ import annotations

import pytest
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.testing import WebsocketCommunicator

from common.channel_layer import channel_layer, release_channel
from games.consumers.sockets import DirectDispatchMixin

pytestmark = pytest.mark.asyncio


class StopsOnAMessage(DirectDispatchMixin, AsyncJsonWebsocketConsumer):
    """Stops while handling a channel-layer message: Channels' loop then has
    no receive of the layer waiting to be cancelled, which is what let the
    pub/sub layer forget a channel until now."""

    opened: list[str] = []

    async def connect(self):
        await self.accept()
        self.opened.append(self.channel_name)

    async def stop_now(self, message):
        raise StopConsumer


async def test_a_consumer_that_stops_on_a_layer_message_lets_its_channel_go():
    layer = channel_layer()
    communicator = WebsocketCommunicator(StopsOnAMessage.as_asgi(), "/ws/stops/")
    connected, _ = await communicator.connect()
    assert connected
    channel = StopsOnAMessage.opened[-1]
    subscribed = layer._get_layer().channels
    assert channel in subscribed
    await layer.send(channel, {"type": "stop.now"})
    await communicator.wait(timeout=10)

    assert channel not in subscribed


async def test_a_consumer_closed_by_its_client_lets_its_channel_go():
    layer = channel_layer()
    communicator = WebsocketCommunicator(StopsOnAMessage.as_asgi(), "/ws/stops/")
    connected, _ = await communicator.connect()
    assert connected
    channel = StopsOnAMessage.opened[-1]
    await communicator.disconnect()

    assert channel not in layer._get_layer().channels


async def test_redis_away_when_a_channel_is_let_go_is_logged_not_raised(caplog):
    """The socket has ended: a Redis that cannot be reached then costs a
    line in the log, not an exception out of the consumer."""

    layer = channel_layer()
    loop_layer = layer._get_layer()
    channel = await layer.new_channel()
    shard = loop_layer._get_shard(channel)

    async def refused(name):
        raise ConnectionError("Error 111 connecting to localhost:6379. Refused.")

    shard.unsubscribe, real = refused, shard.unsubscribe
    try:
        await release_channel(layer, channel)
    finally:
        shard.unsubscribe = real
    assert channel not in loop_layer.channels
    assert "a channel's subscription stayed: Error 111" in caplog.text
    await real(channel)
