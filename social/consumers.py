"""The personal socket, /ws/me/: every page of a signed-in player keeps
one open (static/js/me.js).

It carries the player's news (an invitation, a friend request, an answer
to an invitation, a change in their friends) from ``social.notify``, and
it is the player's presence: each ping refreshes the socket's entry in
``social.presence``, which runs out on its own when the socket dies
without a close. Coming online or going offline is told to the player's
friends. Like every live socket it keeps the message rate and closes with
its session (``games.consumers.sockets.UserSocketMixin``). The messages are in
docs/protocol.md ("The personal socket").
"""

from __future__ import annotations

import logging
import time

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone
from redis import RedisError

from common.database_threads import off_the_loop
from common.messages import Ping, Pong, Refused, by_type, decode, parse
from common.unavailable import DATABASE_UNAVAILABLE, first_line
from games.consumers.sockets import (
    DirectDispatchMixin,
    UserSocketMixin,
    read_frame,
)
from social import notify, presence, selectors
from social.messages import ME, Hello, MeMessage

logger = logging.getLogger(__name__)

# Redis calls off the shared thread of sync calls: they are thread-safe and
# quick, and touch no database connection.
_heard = sync_to_async(presence.heard, thread_sensitive=False)
_gone = sync_to_async(presence.gone, thread_sensitive=False)


class MeConsumer(DirectDispatchMixin, UserSocketMixin, AsyncJsonWebsocketConsumer):
    GROUPS = (*UserSocketMixin.GROUPS, ME)
    # What the page may send.
    TAKES = by_type(Ping)

    group: str | None = None
    counted = False
    # Counted apart from the pages' own sockets: every page opens one, and
    # it must not close a table's socket to keep within the limit.
    socket_kind = "me-sockets"

    async def connect(self):
        if not await self.open_signed_in(self.join_me_group):
            return
        user_id = self.user_id
        # Counted before the hello, so that a hello means "online".
        self.counted = True
        came = await _heard(user_id, self.channel_name, now=time.time())
        await self.send_message(await off_the_loop(_hello)(user_id))
        if came:
            await self.tell_friends(user_id)

    async def join_me_group(self, user) -> bool:
        self.group = notify.me_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        return True

    async def disconnect(self, code):
        user_id = self.user_id
        await self.leave_user_group()
        await self.leave_group(self.group)
        if not self.counted:
            return
        self.counted = False
        try:
            offline = await _gone(user_id, self.channel_name, now=time.time())
        except RedisError:
            # Redis down: the socket's presence runs out on its own, and the
            # friends see the player offline when it has.
            logger.warning("socket %s: presence not cleared", self.channel_name)
            return
        if offline:
            await self.tell_friends(user_id)

    async def receive(self, text_data=None, bytes_data=None):
        # Parsed here rather than in receive_json, so that a malformed frame
        # gets an answer instead of closing the socket.
        try:
            frame = read_frame(text_data, bytes_data)
            parse(frame, self.TAKES, unknown_named=False)  # a Ping
        except Refused as refusal:
            await self.send_message(refusal.error())
            return
        # Recorded before the answer, so that a pong means "counted".
        back = await _heard(self.user_id, self.channel_name, now=time.time())
        await self.send_message(Pong())
        if back:
            # Out of time before this ping (a long pause): online again.
            await self.tell_friends(self.user_id)

    async def tell_friends(self, user_id: int):
        try:
            friends = await off_the_loop(selectors.friend_ids)(user_id)
        except DATABASE_UNAVAILABLE as error:
            # A socket closing (or refused at its opening) while the
            # database is away still closes; the friends' pages read the
            # player's presence again when they next load their friends.
            logger.warning(
                "socket %s: friends not told, the database is unavailable (%s)",
                self.channel_name,
                first_line(error),
            )
            return
        await notify.send_async([(friend, notify.FRIENDS) for friend in friends])

    async def me_message(self, event):
        """The group's ``MeMessage``: passed on as it was encoded."""
        await self.send_json(decode(MeMessage, event).message)


def _hello(user_id: int) -> Hello:
    """The first message: the invitations still open, so that a page opened
    after one was sent shows it too."""
    invitations = selectors.invitations_received(user_id, now=timezone.now())
    return Hello([selectors.invitation_json(i) for i in invitations])
