"""The table's (playing or waiting for its players) and the lobby's sockets
as the site serves them: the games' sockets (``games.consumers``) with the
chat riding on them.

The games know nothing of the chat; their sockets leave room for it
(``joined``, ``leaving``, ``TAKES``, ``on_message``, ``GROUPS``), and these
classes fill it, so the chat sits above the games and the games import
nothing of it. The chat never goes through a game's owner
(``chat.consumers``).
"""

from __future__ import annotations

from chat.consumers import ChatSocketMixin
from chat.messages import CHAT_ROOM, CHAT_TAKES, ChatIn, ChatMuteIn, ChatReportIn
from chat.selectors import LOBBY, table_room
from common.messages import ClientIn
from games.consumers import GameConsumer, LobbyConsumer, WaitingTableConsumer


class TableSocket(ChatSocketMixin, GameConsumer):
    """A live table's socket, with the room of the seat's side: the
    players', or the spectators'."""

    GROUPS = (*GameConsumer.GROUPS, CHAT_ROOM)
    TAKES = {**GameConsumer.TAKES, **CHAT_TAKES}

    async def joined(self) -> None:
        await self.chat_join(table_room(self.table_id, self.seat), self.user_id)

    async def leaving(self) -> None:
        await self.chat_leave()

    async def on_message(self, message: ClientIn) -> None:
        if isinstance(message, ChatIn | ChatMuteIn | ChatReportIn):
            await self.chat_receive(message)
        else:
            await super().on_message(message)


class WaitingTableSocket(ChatSocketMixin, WaitingTableConsumer):
    """The socket of a table waiting for its last players, in the room of
    the seat's side as at the game (``TableSocket``): the same room, so
    what is said here is there when the game begins, and goes on."""

    GROUPS = (*WaitingTableConsumer.GROUPS, CHAT_ROOM)
    TAKES = {**WaitingTableConsumer.TAKES, **CHAT_TAKES}

    async def joined(self) -> None:
        await self.chat_join(table_room(self.table_id, self.seat), self.user_id)

    async def leaving(self) -> None:
        await self.chat_leave()

    async def on_message(self, message: ClientIn) -> None:
        if isinstance(message, ChatIn | ChatMuteIn | ChatReportIn):
            await self.chat_receive(message)
        else:
            await super().on_message(message)


class LobbySocket(ChatSocketMixin, LobbyConsumer):
    """The lobby's socket, with the lobby's room: anybody reads it, a
    signed-in user writes in it."""

    GROUPS = (*LobbyConsumer.GROUPS, CHAT_ROOM)
    TAKES = {**LobbyConsumer.TAKES, **CHAT_TAKES}

    async def joined(self, user_id: int | None) -> None:
        await self.chat_join(LOBBY, user_id)

    async def leaving(self) -> None:
        await self.chat_leave()

    async def on_message(self, message: ClientIn) -> None:
        if isinstance(message, ChatIn | ChatMuteIn | ChatReportIn):
            await self.chat_receive(message)
