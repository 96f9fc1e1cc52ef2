"""Whether the channel layer stalled, and the syncs that make up for it.

Each heartbeat the hall sends itself a probe through the channel layer. One
back late (``PROBE_LATE_SECONDS``), or after a gap of more than a beat and a
half (probes lost), says the layer stalled: its Redis failed over or
restarted, and what the owners here sent to sockets in other processes
meanwhile may be lost (Pub/Sub keeps nothing for a subscriber that
reconnects). Those sockets are then sent a sync, once the other processes
have had the time to subscribe again (``RESYNC_AFTER_STALL_SECONDS``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from games.live.commands import Sync
from games.live.leases import HEARTBEAT_SECONDS
from games.live.sinks import RemoteSink

if TYPE_CHECKING:
    from games.live.hall import Hall

logger = logging.getLogger(__name__)

PROBE_LATE_SECONDS = 1.0
RESYNC_AFTER_STALL_SECONDS = 1.0


class LayerProbe:
    """A hall's probe of its channel layer."""

    def __init__(self, hall: Hall):
        self.hall = hall
        self.channel = ""
        self.back_at: float | None = None  # when a probe last came back

    async def start(self) -> None:
        self.channel = await self.hall.layer.new_channel("probe.")
        self.hall.spawn(self._receive_loop())

    async def send(self) -> None:
        try:
            await self.hall.layer.send(
                self.channel, {"type": "hall.probe", "at": time.monotonic()}
            )
        except Exception:  # the layer away: the gap shows when it is back
            logger.debug("hall %s: probe not sent", self.hall.channel, exc_info=True)

    async def _receive_loop(self) -> None:
        while True:
            message = await self.hall.layer.receive(self.channel)
            now, last = time.monotonic(), self.back_at
            self.back_at = now
            late = now - message["at"] > PROBE_LATE_SECONDS
            if late or (last is not None and now - last > 1.5 * HEARTBEAT_SECONDS):
                logger.warning(
                    "hall %s: the channel layer stalled; syncing the sockets "
                    "in other processes again",
                    self.hall.channel,
                )
                self.hall.spawn(
                    resync_remote_sockets(self.hall, RESYNC_AFTER_STALL_SECONDS)
                )


async def resync_remote_sockets(hall: Hall, delay: float = 0.0) -> None:
    """Send every socket in another process attached to an owner of
    ``hall`` a sync: what was sent to it through the channel layer may be
    lost."""
    await asyncio.sleep(delay)
    for owner in hall.owners.live_owners():
        for key, attached in list(owner.sockets.items()):
            if not isinstance(attached.sink, RemoteSink):
                continue  # called directly: nothing lost
            try:
                await owner.handle(Sync(since=None), key)
            except Exception:  # one broken socket must not stop the others
                logger.debug("a resync failed", exc_info=True)
