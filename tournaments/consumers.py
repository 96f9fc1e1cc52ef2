"""Live updates of a tournament page over WebSocket.

A socket joins its tournament's group and passes each "something changed"
on to the page, which then fetches what it shows; nothing private travels
here, so anyone may watch. A signed-in user's socket also joins the user's
group, so a ban closes it like every other socket of theirs.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from common.database_threads import off_the_loop
from common.messages import decode
from games.consumers.sockets import (
    CLOSE_NOT_FOUND,
    DirectDispatchMixin,
    PongToEveryFrameMixin,
    UserSocketMixin,
)
from tournaments.messages import TOURNAMENT, TournamentChanged, TournamentNews
from tournaments.models import Tournament
from tournaments.notify import tournament_group


def _exists(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id).exists()


class TournamentConsumer(
    DirectDispatchMixin,
    UserSocketMixin,
    PongToEveryFrameMixin,
    AsyncJsonWebsocketConsumer,
):
    GROUPS = (*UserSocketMixin.GROUPS, TOURNAMENT)
    group: str | None = None

    async def connect(self):
        user = self.scope["user"]
        if user.is_authenticated and not await self.join_user_group(user):
            return
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await off_the_loop(_exists)(tournament_id):
            await self.refuse(CLOSE_NOT_FOUND, "no such tournament")
            return
        self.group = tournament_group(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.leave_user_group()
        group, self.group = self.group, None
        await self.leave_group(group)

    async def tournament_changed(self, event):
        await self.send_message(TournamentNews(decode(TournamentChanged, event).what))
