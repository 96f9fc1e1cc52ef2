"""Where a game's owner sends a socket's messages (``owner.Sink``): a table's
socket in this process, called directly, or one in another process, through
the channel layer (``relay``). Each message that crosses the layer is a hop,
counted in ``HOPS``.
"""

from __future__ import annotations

from typing import Protocol

from common.channel_layer import ChannelLayer
from common.messages import encode
from games.live.owner import Sink
from games.messages import TableClose, TableText

# Messages this process sent through the channel layer to reach an owner
# or a socket in another process, since it started.
HOPS = {"sent": 0}


class Consumer(Protocol):
    """A table's socket in this process (``games.consumers.table``), as the
    relay sees it."""

    @property
    def channel_name(self) -> str: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def protocol(self) -> int: ...

    async def send_text(self, text: str) -> None: ...

    async def close(self, code: int) -> None: ...


class LocalSink(Sink):
    """A consumer in this process."""

    def __init__(self, consumer: Consumer):
        self.consumer = consumer

    async def send_text(self, text: str) -> None:
        await self.consumer.send_text(text)

    async def close(self, code: int) -> None:
        await self.consumer.close(code=code)


class RemoteSink(Sink):
    """A consumer in another process, through the channel layer."""

    def __init__(self, layer: ChannelLayer, channel: str):
        self.layer, self.channel = layer, channel

    async def send_text(self, text: str) -> None:
        HOPS["sent"] += 1
        await self.layer.send(self.channel, encode(TableText(text)))

    async def close(self, code: int) -> None:
        HOPS["sent"] += 1
        await self.layer.send(self.channel, encode(TableClose(code)))
