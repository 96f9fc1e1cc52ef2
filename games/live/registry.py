"""The owners one server process holds (its ``hall.Hall``), by game.

An owner is *live* while its process holds the game's lease, and
*finished* from the step that ended the game until its last socket has
gone: the finished game's sockets are still answered (a sync, a late move
refused) by the owner they know. A game being taken over is waited for by
whoever else asks for it meanwhile, so that it is read once.

The hall keeps the registry; its relay reads it through ``Owners``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from games.live.owner import GameOwner


class Owners(Protocol):
    """What may be read of the owners a process holds."""

    def __contains__(self, game_id: object) -> bool:
        """Whether the game's owner here is live."""

    def live(self, game_id: int) -> GameOwner | None:
        """The game's live owner here."""

    def get(self, game_id: int) -> GameOwner | None:
        """The game's owner here, live or finished."""


class Registry(Owners):
    """The live and finished owners of a process (see the module)."""

    def __init__(self) -> None:
        self._live: dict[int, GameOwner] = {}
        self._finished: dict[int, GameOwner] = {}
        self._adopting: dict[int, asyncio.Future[GameOwner | None]] = {}

    # Reading

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._live

    def __len__(self) -> int:
        return len(self._live)

    def live(self, game_id: int) -> GameOwner | None:
        return self._live.get(game_id)

    def get(self, game_id: int) -> GameOwner | None:
        return self._live.get(game_id) or self._finished.get(game_id)

    def live_ids(self) -> list[int]:
        return list(self._live)

    def live_owners(self) -> list[GameOwner]:
        return list(self._live.values())

    def all_owners(self) -> list[GameOwner]:
        return [*self._live.values(), *self._finished.values()]

    # Changing

    def add(self, owner: GameOwner) -> None:
        """A game taken over here."""
        self._live[owner.game_id] = owner

    def finish(self, owner: GameOwner) -> bool:
        """The owner's game ended: kept while its sockets stay. False when
        the owner was no longer the game's live one here."""
        if self._live.get(owner.game_id) is not owner:
            return False
        del self._live[owner.game_id]
        self._finished[owner.game_id] = owner
        return True

    def drop(self, owner: GameOwner) -> bool:
        """Forget the live owner; False when it was no longer the game's."""
        if self._live.get(owner.game_id) is not owner:
            return False
        del self._live[owner.game_id]
        return True

    def drop_game(self, game_id: int) -> GameOwner | None:
        """Forget the game's live owner, whichever it is; that owner."""
        return self._live.pop(game_id, None)

    def sweep_finished(self) -> None:
        """Forget the finished owners that have no socket left."""
        for game_id, owner in list(self._finished.items()):
            if not owner.sockets:
                del self._finished[game_id]

    # Adopting

    async def adopt_once(
        self,
        game_ids: list[int],
        take: Callable[[list[int]], Awaitable[dict[int, GameOwner]]],
    ) -> dict[int, GameOwner]:
        """Take the games over with ``take`` (which returns the owners it
        made); a game already being taken over here is waited for, not
        taken twice. The owners of the games, where one was made."""
        pending = {g: self._adopting[g] for g in game_ids if g in self._adopting}
        fresh = [g for g in dict.fromkeys(game_ids) if g not in pending]
        loop = asyncio.get_running_loop()
        futures = {game_id: loop.create_future() for game_id in fresh}
        self._adopting.update(futures)
        try:
            owners = await take(fresh)
            for game_id, future in futures.items():
                future.set_result(owners.get(game_id))
        except BaseException as error:
            for future in futures.values():
                future.set_exception(error)
                # Raised here to the caller, and to any caller waiting on
                # the same game: nobody need retrieve it from the future.
                future.exception()
            raise
        finally:
            for game_id in fresh:
                del self._adopting[game_id]
        for game_id, future in pending.items():
            owner = await asyncio.shield(future)
            if owner is not None:
                owners[game_id] = owner
        return owners
