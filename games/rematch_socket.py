"""The rematch messages of the table socket (docs/protocol.md, "Rematch").

A finished game has no owner to speak for it, so these messages go to the
rematch services (``games.services.rematch``) from the socket itself, never
through ``games.live``. A seated player's socket joins the game's rematch
group (``notify.rematch_group``) when it connects, hears every change of
the offer there as a ``rematch`` message, and is told where the offer
stands on connecting once the game is over. A seated player's last word on
leaving the page: their open offer lapses.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.db import DatabaseError

from common.channel_layer import SocketMixinBase
from common.database_threads import off_the_loop
from common.errors import ApplicationError
from common.messages import ClientOut, decode
from games import selectors
from games.messages import RematchCall, RematchChanged, RematchState
from games.models import Game
from games.services import rematch as rematch_services
from games.services.notify import rematch_group

logger = logging.getLogger(__name__)


def _game_is_over(game_id: int) -> bool:
    return Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists()


def _agree(game_id: int, user) -> None:
    rematch_services.rematch_agree(game_id=game_id, user=user)


def _decline(game_id: int, user) -> None:
    rematch_services.rematch_decline(game_id=game_id, user=user)


def _left(game_id: int, user) -> None:
    rematch_services.rematch_left(game_id=game_id, user=user)


class RematchSocketMixin(SocketMixinBase):
    """For ``GameConsumer`` (a ``UserSocketMixin``): ``{"type": "rematch"}``
    agrees (or offers), ``{"type": "rematch_decline"}`` says no; each is answered by the
    ``rematch`` message every player's socket gets, or by an ``error``."""

    # What the ``GameConsumer`` this is mixed into has.
    game_id: int
    seat: int | None
    if TYPE_CHECKING:

        async def leave_group(self, group: str | None) -> bool: ...

        async def send_error(
            self, client_id: str | None, code: str, message: str
        ) -> None: ...

        async def send_message(self, message: ClientOut) -> None: ...

    rematch_joined = False

    async def join_rematch(self, *, read_offer: bool) -> None:
        """Join the game's rematch group (seated players only) and, with
        ``read_offer`` and once the game is over, say where its offer
        stands (an offer made later comes through the group)."""
        if self.seat is None:
            return
        await self.channel_layer.group_add(
            rematch_group(self.game_id), self.channel_name
        )
        self.rematch_joined = True
        if not read_offer:
            return
        offer = await off_the_loop(_state_if_over)(self.game_id)
        if offer is not None:
            await self.send_message(RematchState(offer))

    async def leave_rematch(self) -> None:
        if not self.rematch_joined:
            return
        self.rematch_joined = False
        # Redis down: the offer still lapses (``leave_group`` of the socket).
        await self.leave_group(rematch_group(self.game_id))
        try:
            await off_the_loop(_left)(self.game_id, self.scope["user"])
        except DatabaseError:
            # A socket closing while the database is away still closes; the
            # offer then lapses with its time instead.
            logger.warning("game %s: a rematch offer not withdrawn", self.game_id)

    async def on_rematch(self, message: RematchCall) -> None:
        await self.rematch_call(_agree, message)

    async def on_rematch_decline(self, message: RematchCall) -> None:
        await self.rematch_call(_decline, message)

    async def rematch_call(self, service, message: RematchCall) -> None:
        try:
            await off_the_loop(service)(self.game_id, self.scope["user"])
        except ApplicationError as error:
            await self.send_error(message.id, error.code, str(error))

    async def rematch_message(self, event):
        """The group's ``RematchChanged``: where the offer stands now."""
        await self.send_message(RematchState(decode(RematchChanged, event).message))


def _state_if_over(game_id: int) -> dict | None:
    """The offer of a finished game, if one was ever made."""
    if not _game_is_over(game_id):
        return None
    message = selectors.rematch_message(game_id)
    return None if message["state"] == "none" else message
