"""The chat riding on the games' sockets (``games.consumers.riders``): the
table's, playing or waiting for its players, and the lobby's.

The games know nothing of the chat; their sockets leave room for it
(``joined``, ``leaving``, ``on_message``, the groups and messages a rider
adds), and these mixins fill it, added from ``chat.apps``, so the chat sits
above the games and the games import nothing of it. The chat never goes
through a game's owner (``chat.consumers``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from chat.consumers import ChatSocketMixin
from chat.messages import CHAT_ROOM, CHAT_TAKES, ChatIn, ChatMuteIn, ChatReportIn
from chat.selectors import LOBBY, table_room
from common.messages import ClientIn, Group

# For the checker, each mixin is what it becomes once served: the games'
# consumer it rides on under it (``riders.served``), whose ``joined``,
# ``leaving`` and ``on_message`` it chains to. At run time it adds nothing.
if TYPE_CHECKING:
    from games.consumers import GameConsumer, LobbyConsumer, WaitingTableConsumer
    from games.consumers.sockets import UserSocketMixin

    class _Ridden(UserSocketMixin):
        async def leaving(self) -> None: ...

        async def on_message(self, message: ClientIn) -> None: ...
else:
    GameConsumer = LobbyConsumer = WaitingTableConsumer = _Ridden = object


class _RidingChat(ChatSocketMixin, _Ridden):
    """The chat's part of a games' socket: its room's group, its messages."""

    RIDER_GROUPS: ClassVar[tuple[Group, ...]] = (CHAT_ROOM,)
    RIDER_TAKES: ClassVar[Mapping[str, type[ClientIn]]] = CHAT_TAKES

    async def leaving(self) -> None:
        await self.chat_leave()
        await super().leaving()

    async def on_message(self, message: ClientIn) -> None:
        if isinstance(message, ChatIn | ChatMuteIn | ChatReportIn):
            await self.chat_receive(message)
        else:
            await super().on_message(message)


class TableChat(_RidingChat, GameConsumer):
    """A live table's socket, in the room of the seat's side: the players',
    or the spectators'."""

    async def joined(self) -> None:
        await super().joined()
        await self.chat_join(table_room(self.table_id, self.seat), self.user_id)


class WaitingTableChat(_RidingChat, WaitingTableConsumer):
    """A table's socket while it waits for its last players, in the room
    of the seat's side as at the game (``TableChat``): the same room, so
    what is said here is there when the game begins, and goes on."""

    async def joined(self) -> None:
        await super().joined()
        await self.chat_join(table_room(self.table_id, self.seat), self.user_id)


class LobbyChat(_RidingChat, LobbyConsumer):
    """The lobby's socket, with the lobby's room: anybody reads it, a
    signed-in user writes in it."""

    async def joined(self, user_id: int | None) -> None:
        await super().joined(user_id)
        await self.chat_join(LOBBY, user_id)
