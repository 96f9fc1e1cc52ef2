"""How a message reaches a game's owner in another server process, and
which process takes a game that nobody owns.

Each process's hall (``hall.Hall``) has one ``Relay``: it answers the
messages on the hall's channel, sends this process's sockets' messages to
owners elsewhere, and keeps the process's node key alive.

**Homes.** The proxy sends a game's sockets to the game's home process
(``routing.home``), so that is the process that should own it: a game
handed to "any server" (``hall.adopt``, orphans found by the heartbeat) is
taken by its home among the processes alive (each renews its key
``pulka:live:node:<node>`` with its heartbeat). Should the home die, that is
the process with the next highest weight, the one the proxy then sends the
sockets to.

**Routing.** A socket's messages go to its game's owner: a direct call when
the owner is in this process; otherwise a message on the owner's channel,
which answers on the socket's channel. Each such message is a hop, counted
in ``sinks.HOPS`` (shown on /health/): a game whose sockets reach its owner makes
none. Code outside a server (Celery tasks, the site's services) reaches
owners through ``outside``.

A command crosses the channel layer as a plain dict (``commands``).

**Actions in flight.** An owner elsewhere may be dead before anyone knows
(its lease stands until it runs out), and what is sent to its channel then
is lost. So a player's action sent to an owner elsewhere is kept here for a
while (``HOLD_SECONDS``) and goes to the new owner too should the game
change hands: played at most once by its id (``LiveGame.answers``), it is
answered again if the old owner played it, played now if not.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol, cast

import redis.asyncio as aioredis
from django.conf import settings

from common.channel_layer import ChannelLayer
from games.live import commands, routing
from games.live.commands import Action, Attach, Command, Detach, OwnerCommand, Wake
from games.live.leases import (
    HEARTBEAT_SECONDS,
    LEASE_SECONDS,
    node_key,
    owner_key,
)
from games.live.registry import Owners
from games.live.sinks import HOPS, Consumer, LocalSink, RemoteSink

if TYPE_CHECKING:
    from games.live.owner import GameOwner

HALLS_GROUP = "pulka-halls"
# Remembered owner channels of games owned elsewhere.
ROUTE_SECONDS = 2.0
# Games taken over at once, of those handed over or found orphaned.
ADOPT_AT_ONCE = 100
# How long an action sent to an owner elsewhere is kept, to go to the next
# owner should the game change hands: a dead owner's lease, then two of the
# heartbeats in which another process sees it gone and takes the game.
HOLD_SECONDS = LEASE_SECONDS + 2 * HEARTBEAT_SECONDS

logger = logging.getLogger(__name__)


class RelaysHall(Protocol):
    """What a relay needs of its hall (``hall.Hall``)."""

    # Read-only, so that a hall may hold richer types (its ``Registry``).
    @property
    def layer(self) -> ChannelLayer:
        """The hall's channel layer."""

    @property
    def channel(self) -> str:
        """The hall's own channel on its layer."""

    @property
    def redis(self) -> aioredis.Redis:
        """The hall's Redis (answers decoded to ``str``)."""

    @property
    def owners(self) -> Owners:
        """The owners the hall holds."""

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coroutine`` as a task of the hall's (stopped with it)."""

    async def owner_here(self, game_id: int) -> GameOwner | None:
        """The game's owner here, taking the game over if nobody holds it."""

    async def adopt(self, game_id: int) -> GameOwner | None:
        """Take the game over if nobody holds it; the owner made."""

    async def adopt_many(self, game_ids: list[int]) -> dict[int, GameOwner]:
        """Take over those of the games nobody holds; the owners made."""


class Relay:
    """A hall's dealings with the other processes, on the hall's channel
    layer, channel and Redis connection."""

    def __init__(self, hall: RelaysHall):
        self.hall = hall
        self.routes: dict[int, tuple[str, float]] = {}
        # This process's consumers attached to an owner elsewhere, by game:
        # (the owner's channel, the consumers). Should the game change
        # owner, they attach again to the new one.
        self.remote: dict[int, tuple[str, set[Consumer]]] = {}
        # Actions sent to an owner elsewhere lately, by game: (when, the
        # socket's key, the action), oldest first ("Actions in flight").
        self.held: dict[int, list[tuple[float, str, Action]]] = {}
        # This process as the proxy names it, and all of them (``routing``).
        self.node = settings.PULKA_LIVE_NODE
        self.nodes = list(settings.PULKA_LIVE_NODES)
        self.sightings = routing.Sightings()

    async def start(self) -> None:
        """Join the halls' group, say this process is alive, and answer
        the messages on the hall's channel."""
        await self.hall.layer.group_add(HALLS_GROUP, self.hall.channel)
        await self.say_alive()
        self.hall.spawn(self._receive_loop())

    async def stop(self) -> None:
        try:
            await self.hall.layer.group_discard(HALLS_GROUP, self.hall.channel)
        except Exception:  # Redis down: the group forgets it by its expiry
            logger.warning("hall %s: Redis not told it stopped", self.hall.channel)

    # Sockets

    async def attach(
        self,
        game_id: int,
        consumer: Consumer,
        audience: int | None,
        since: int | None,
    ) -> bool:
        """Attach a consumer to its game; False when nobody can own the game
        (it is over): the consumer then answers from the database."""
        owner = await self.hall.owner_here(game_id)
        if owner is not None:
            await owner.attach(
                consumer.channel_name,
                LocalSink(consumer),
                audience,
                since,
                consumer.protocol,
            )
            return True
        channel = await self.owner_channel(game_id)
        if channel is None:
            return False
        owner_channel, consumers = self.remote.get(game_id, (channel, set()))
        if owner_channel != channel:
            consumers = set()
        consumers.add(consumer)
        self.remote[game_id] = (channel, consumers)
        await self._send_remote(
            channel,
            game_id,
            consumer.channel_name,
            Attach(audience, since, consumer.channel_name, consumer.protocol),
        )
        return True

    async def attach_again(self, game_id: int) -> None:
        """The game's owner changed: its consumers here attach to the new
        one, and the actions they sent to the old one lately go to it too."""
        _, consumers = self.remote.pop(game_id, ("", set()))
        for consumer in consumers:
            await self.attach(game_id, consumer, consumer.seat, None)
        keys = {consumer.channel_name for consumer in consumers}
        for sent_at, key, action in self.held.pop(game_id, []):
            if key in keys and time.monotonic() - sent_at < HOLD_SECONDS:
                await self._command(game_id, key, action, sent_at)

    async def owned_here(self, game_id: int) -> None:
        """This process took the game over: the consumers here that were
        attached to its owner elsewhere attach to this one."""
        self.routes.pop(game_id, None)
        if game_id in self.remote:
            await self.attach_again(game_id)

    async def command(self, game_id: int, key: str, command: OwnerCommand) -> None:
        """A socket's command for its game's owner.

        Handed over, not waited for, to an owner here as to one elsewhere:
        the owner answers the socket itself. A socket reads one frame at a
        time, and a move may wait on the database for as long as the pool
        gives a connection; waiting for it here, the socket read none of
        its pings meanwhile, and its owner closed it as silent (4408)
        while PostgreSQL refused connections."""
        await self._command(game_id, key, command, time.monotonic())

    async def _command(
        self, game_id: int, key: str, command: OwnerCommand, sent_at: float
    ) -> None:
        owner = self.hall.owners.get(game_id)
        if owner is None:
            channel = await self.owner_channel(game_id)
            if channel is not None:
                if isinstance(command, Action):
                    self.held.setdefault(game_id, []).append((sent_at, key, command))
                await self._send_remote(channel, game_id, key, command)
                return
            owner = await self.hall.owner_here(game_id)
            if owner is None:
                return
        self.hall.spawn(owner.handle(command, key))

    async def detach(self, game_id: int, consumer: Consumer) -> None:
        key = consumer.channel_name
        if game_id in self.held:
            self.forget_held(game_id, lambda _, held_key: held_key == key)
        if game_id in self.remote:
            self.remote[game_id][1].discard(consumer)
            if not self.remote[game_id][1]:
                del self.remote[game_id]
        owner = self.hall.owners.get(game_id)
        if owner is not None:
            await owner.detach(key)
            return
        channel = await self.owner_channel(game_id)
        if channel is not None:
            await self._send_remote(channel, game_id, key, Detach())

    async def _send_remote(
        self, channel: str, game_id: int, key: str, command: Command
    ) -> None:
        HOPS["sent"] += 1
        await self.hall.layer.send(
            channel,
            {
                "type": "hall.command",
                "game": game_id,
                "key": key,
                "command": commands.to_message(command),
            },
        )

    async def owner_channel(self, game_id: int) -> str | None:
        """The channel of the game's owner in another process, if any."""
        route = self.routes.get(game_id)
        if route is not None and time.monotonic() - route[1] < ROUTE_SECONDS:
            return route[0]
        channel = cast(str | None, await self.hall.redis.get(owner_key(game_id)))
        if channel is None or channel == self.hall.channel:
            self.routes.pop(game_id, None)
            return None
        self.routes[game_id] = (channel, time.monotonic())
        return channel

    def forget_held(self, game_id: int, forget: Callable[[float, str], bool]) -> None:
        """Drop the game's held actions for which ``forget(sent_at, key)``."""
        kept = [held for held in self.held[game_id] if not forget(*held[:2])]
        if kept:
            self.held[game_id] = kept
        else:
            del self.held[game_id]

    async def follow_new_owners(self) -> None:
        """Each beat: the consumers here whose game's owner elsewhere
        changed attach to the new one; actions held past their time are
        let go (their owner answered them, or its sockets were told to
        send them again by a sync)."""
        too_old = time.monotonic() - HOLD_SECONDS
        for game_id in list(self.held):
            self.forget_held(game_id, lambda sent_at, _: sent_at < too_old)
        watched = list(self.remote.items())
        if watched:
            owners_now = await self.hall.redis.mget([owner_key(g) for g, _ in watched])
            for (game_id, (channel, _)), now_owner in zip(
                watched, owners_now, strict=True
            ):
                if now_owner != channel:
                    self.routes.pop(game_id, None)
                    await self.attach_again(game_id)

    # Homes

    async def say_alive(self) -> None:
        if self.node:
            await self.hall.redis.set(
                node_key(self.node), self.hall.channel, px=int(LEASE_SECONDS * 1000)
            )

    async def live_nodes(self) -> dict[str, str]:
        """The processes alive now, this one among them, in the order of
        ``PULKA_LIVE_NODES``: each one's hall channel, by node."""
        # The hall's Redis answers decoded.
        answers = cast(
            list[str | None],
            await self.hall.redis.mget([node_key(node) for node in self.nodes]),
        )
        return {
            node: channel or self.hall.channel
            for node, channel in zip(self.nodes, answers, strict=True)
            if channel or node == self.node
        }

    async def mine_to_take(self, game_ids: list[int]) -> list[int]:
        """Of unowned games, those this process should take: those whose home
        among the live processes is this one, which is where the proxy sends
        their sockets (it skips a dead upstream as this skips a dead node).
        Every game when there are no nodes (one process)."""
        if not self.nodes or not game_ids:
            return game_ids
        alive = list(await self.live_nodes())
        return [g for g in game_ids if routing.home(g, alive) == self.node]

    async def homes_elsewhere(self, game_ids: list[int]) -> dict[int, str]:
        """Of the games owned here, those whose home among the live processes
        is another one, alive long enough for the proxy to see it (a home
        back from the dead, ``routing.SETTLE_SECONDS``): its channel, by game."""
        if not self.nodes or not game_ids:
            return {}
        alive = await self.live_nodes()
        settled = self.sightings.settled(alive, time.monotonic())
        homes = {game_id: routing.home(game_id, list(alive)) for game_id in game_ids}
        return {
            game_id: alive[node]
            for game_id, node in homes.items()
            if node in settled and node != self.node
        }

    async def tell_home(self, game_id: int, home: str) -> None:
        """The game's lease was passed to ``home`` (a hall's channel): it
        reads the game now, for its timers, not at its sockets' return."""
        HOPS["sent"] += 1
        await self.hall.layer.send(home, {"type": "hall.adopt", "game": game_id})

    async def adopt_in_batches(self, game_ids: list[int]) -> None:
        for start in range(0, len(game_ids), ADOPT_AT_ONCE):
            await self.hall.adopt_many(game_ids[start : start + ADOPT_AT_ONCE])

    # Messages on this process's channel

    async def _receive_loop(self) -> None:
        while True:
            message = await self.hall.layer.receive(self.hall.channel)
            self.hall.spawn(self._on_message(message))

    async def _on_message(self, message: dict[str, Any]) -> None:
        hall = self.hall
        if message["type"] == "hall.adopt_many":
            games = [g for g in message["games"] if g not in hall.owners]
            await self.adopt_in_batches(await self.mine_to_take(games))
            return
        game_id = message["game"]
        command = (
            commands.from_message(message["command"])
            if message.get("command")
            else Wake()
        )
        if message["type"] == "hall.adopt":
            owner = hall.owners.live(game_id)
            if owner is None and await self.mine_to_take([game_id]):
                owner = await hall.adopt(game_id)
            if owner is not None:
                await self._deliver(owner, command, None)
            return
        owner = hall.owners.get(game_id)
        if owner is None:
            owner = await hall.adopt(game_id)
        if owner is None:
            # Sent on an old route: pass it on to the owner, once.
            channel = await self.owner_channel(game_id)
            if channel is not None and not message.get("passed"):
                HOPS["sent"] += 1
                await hall.layer.send(channel, {**message, "passed": True})
            return
        await self._deliver(owner, command, message.get("key"))

    async def _deliver(
        self, owner: GameOwner, command: Command, key: str | None
    ) -> None:
        """A command from another process (``key``: its socket's channel,
        or None from the site) to the owner here."""
        match command:
            case Attach(
                audience=audience, since=since, channel=channel, protocol=protocol
            ):
                # The socket's channel is its key (``attach`` sends both).
                sink = RemoteSink(self.hall.layer, channel)
                await owner.attach(channel, sink, audience, since, protocol)
            case Detach():
                if key is not None:
                    await owner.detach(key)
            case Wake():
                pass
            case _:
                await owner.handle(command, key)
