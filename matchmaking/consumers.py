"""The quick-play page's WebSocket: where a waiting player hears of a match.

Each connection joins its user's group (``notify.user_group``) and receives
``{"type": "matched", "table": id, "url": ...}`` when a tick seats them, or
``{"type": "removed", "reason": ...}`` when they leave the pool without one.
A ``{"type": "ping"}`` from the page says the player is still there (see
``services.AWAY_SECONDS``) and is answered with their status. Like every
live-play socket it closes with its session (``accounts.sockets``).

A ping never touches the database: it is recorded in Redis (``pings``,
which the tick reads), and answered from the status the socket read when it
opened, brought up to the time and to the pool's size as of the last tick.
The player's place changes only by a join, a match, a removal or a
cancel, each told to the user's group, which the socket joined before it
read the status. So a ping is answered at once while the database is slow or
refusing connections, and takes no turn on the process's one thread of
database calls that the sockets' openings and the chat wait on.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from redis import RedisError

from common.database_threads import off_the_loop
from common.messages import Error, Ping, Refused, by_type, decode, parse
from games.consumers.sockets import (
    DirectDispatchMixin,
    UserSocketMixin,
    read_frame,
)
from matchmaking import notify, pings, selectors
from matchmaking.messages import (
    QUICKPLAY,
    QuickplayJoined,
    QuickplayMessage,
    Status,
)
from matchmaking.models import PoolEntry
from matchmaking.selectors import PoolStatus

logger = logging.getLogger(__name__)

# A Redis call off the shared thread of sync calls: thread-safe, quick, and
# touching no database connection.
_heard = sync_to_async(pings.heard, thread_sensitive=False)


class QuickPlayConsumer(
    DirectDispatchMixin, UserSocketMixin, AsyncJsonWebsocketConsumer
):
    GROUPS = (*UserSocketMixin.GROUPS, QUICKPLAY)
    # What the page may send.
    TAKES = by_type(Ping)

    group: str | None = None
    # The player's status as the socket opened, or as the group told since.
    status = PoolStatus(waiting=False)

    async def connect(self):
        # The user's live-play group too: a ban closes this socket as well.
        await self.open_signed_in(self.join_pool_group)

    async def join_pool_group(self, user) -> bool:
        self.group = notify.user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.status = await off_the_loop(selectors.pool_status)(user)
        return True

    async def disconnect(self, code):
        await self.leave_user_group()
        await self.leave_group(self.group)

    async def receive(self, text_data=None, bytes_data=None):
        # Parsed here rather than in receive_json, so that a malformed frame
        # gets an answer instead of closing the socket; read as the table's
        # socket reads its frames, every refusal is a bad_message here.
        try:
            parse(read_frame(text_data, bytes_data), self.TAKES)  # a Ping
        except Refused as refusal:
            await self.send_message(Error(None, "bad_message", str(refusal)))
            return
        await self.send_message(_status(await self.status_now()))

    async def status_now(self) -> PoolStatus:
        """Record the ping, and the player's status now."""
        now = time.time()
        status, players = self.status, None
        category, stake, user_id = status.category, status.stake, self.user_id
        # A waiting status has its pool, and the socket its signed-in user.
        if (
            status.waiting
            and category is not None
            and stake is not None
            and user_id is not None
        ):
            try:
                players = await _heard(user_id, category, stake, now=now)
            except RedisError:
                # The tick cannot run either (its broker is Redis): the
                # player stays in the pool until it can.
                logger.warning("socket %s: ping not recorded", self.channel_name)
        at = datetime.fromtimestamp(now, tz=UTC)
        return selectors.status_at(status, at, players=players)

    async def quickplay_joined(self, event):
        """The player joined a pool (on this page or another): the pings
        answer so from now on."""
        fields = decode(QuickplayJoined, event).entry
        joined_at = datetime.fromtimestamp(fields["joined_at"], tz=UTC)
        entry = PoolEntry(**{**fields, "joined_at": joined_at})
        self.status = selectors.entry_status(entry, players=1)

    async def quickplay_message(self, event):
        """The group's ``QuickplayMessage``: a match or a removal, which the
        pings answer from now on, passed on to the page."""
        message = decode(QuickplayMessage, event).message
        if message["type"] == "matched":
            self.status = PoolStatus(
                waiting=False, table=message["table"], url=message["url"]
            )
        elif message["type"] == "removed":
            self.status = PoolStatus(waiting=False)
        await self.send_json(message)


def _status(status: PoolStatus) -> Status:
    return Status(
        status.waiting,
        status.waited,
        status.window,
        status.players,
        status.table,
        status.url,
        status.bots_in,
    )
