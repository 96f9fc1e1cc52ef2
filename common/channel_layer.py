"""The site's channel layer, typed by what the site calls on it, and the
base its sockets' mixins are typed on.

``channels.layers.get_channel_layer`` returns ``BaseChannelLayer | None``:
None with no ``CHANNEL_LAYERS`` setting, which the site always has, and a
base class that lacks ``group_send`` and ``new_channel``'s prefix, which
the Redis layer the site runs (``channels_redis``, untyped) has.
"""

from typing import TYPE_CHECKING, Any, Protocol, cast

from channels.layers import get_channel_layer
from django.core.exceptions import ImproperlyConfigured


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


# The base of a mixin for the site's JSON sockets, for the type checker: the
# consumer's own methods and attributes (``send_json``, ``scope``,
# ``channel_layer``...) are there to the mixin's methods; at run time the
# mixin adds nothing to the consumer it is mixed into.
if TYPE_CHECKING:
    from channels.generic.websocket import AsyncJsonWebsocketConsumer

    SocketMixinBase = AsyncJsonWebsocketConsumer
else:
    SocketMixinBase = object
