"""The site's channel layer, typed by what the site calls on it, and the
base its sockets' mixins are typed on.

``channels.layers.get_channel_layer`` returns ``BaseChannelLayer | None``:
None with no ``CHANNEL_LAYERS`` setting, which the site always has, and a
base class that lacks ``group_send`` and ``new_channel``'s prefix, which
the Redis layer the site runs (``channels_redis``, untyped) has.
"""

import logging
from typing import TYPE_CHECKING, Any, Protocol, cast

from channels.layers import get_channel_layer
from django.core.exceptions import ImproperlyConfigured

from common.unavailable import first_line

logger = logging.getLogger(__name__)


class ChannelLayer(Protocol):
    """What the site calls on its channel layer."""

    async def send(self, channel: str, message: dict[str, Any]) -> None: ...

    async def receive(self, channel: str) -> dict[str, Any]: ...

    async def new_channel(self, prefix: str = "specific.") -> str: ...

    async def group_add(self, group: str, channel: str) -> None: ...

    async def group_discard(self, group: str, channel: str) -> None: ...

    async def group_send(self, group: str, message: dict[str, Any]) -> None: ...


def channel_layer() -> ChannelLayer:
    """The default channel layer (``CHANNEL_LAYERS``)."""
    layer = get_channel_layer()
    if layer is None:
        raise ImproperlyConfigured("CHANNEL_LAYERS has no default layer")
    return cast(ChannelLayer, layer)


async def release_channel(layer: object, channel: str | None) -> None:
    """Forget a finished consumer's channel in the pub/sub layer.

    ``channels_redis``'s ``RedisPubSubChannelLayer`` keeps a queue and a
    Redis subscription for each consumer's channel, and lets them go only
    when the consumer's ``receive`` is cancelled while it waits
    (django/channels_redis#276). Channels' dispatch loop leaves a receive
    that has just got a message uncancelled when the consumer stops in the
    same turn (a socket closing while a lobby update comes in), and the
    channel then stays for the life of the process: about a third of the
    sockets opened in an hour's load (``benchmarks/players.py
    --memory-every``). Called when the consumer has ended; a channel the
    layer already let go is left alone, and so is any other layer.
    """
    loop_layer = getattr(layer, "_get_layer", None)
    if channel is None or loop_layer is None:
        return
    current = loop_layer()
    if current.channels.pop(channel, None) is None:
        return
    try:
        await current._get_shard(channel).unsubscribe(channel)
    except Exception as error:  # noqa: BLE001 (Redis away: said, not raised)
        # The shard keeps the name among its subscriptions (renewed when it
        # reconnects): one stale subscription, no queue; the socket has
        # ended either way.
        logger.warning("a channel's subscription stayed: %s", first_line(error))


# The base of a mixin for the site's JSON sockets, for the type checker: the
# consumer's own methods and attributes (``send_json``, ``scope``,
# ``channel_layer``...) are there to the mixin's methods; at run time the
# mixin adds nothing to the consumer it is mixed into.
if TYPE_CHECKING:
    from channels.generic.websocket import AsyncJsonWebsocketConsumer

    SocketMixinBase = AsyncJsonWebsocketConsumer
else:
    SocketMixinBase = object
