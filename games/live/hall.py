"""Which live games this server process owns.

Each server process (each event loop) has one ``Hall``: the games it owns
(its ``owners``, a ``registry.Registry``), its own channel on the channel
layer, a pool of async database connections for the owners' writes, and a
heartbeat. Its ``relay`` deals with the other processes: the messages to
and from owners elsewhere, and which of the games nobody owns are this
process's to take.

**Leases.** A process owns a game while it holds the key
``pulka:live:<game>:owner`` in Redis (its channel name, set with NX and a
time to live). The heartbeat renews the leases of the games it owns, notes
when each was last seen owned (``pulka:live:seen``). A process that dies
stops renewing: after ``LEASE_SECONDS`` any other process's heartbeat finds
the game unowned and takes it over, from the database (snapshot plus later
events, and the seats' presence with their graces). A lease is only a
promise: the events' unique version fences the writes themselves
(``journal.Fenced``). A lease Redis lost (a Sentinel failover to a replica
that had not yet received it, a restart) is taken again by the heartbeat of
the process that held it, while no other process has taken it: the game
goes on where it was, its sockets open.

**Outages.** A process taking a game over after it went unowned for longer
than the heartbeats allow moves the turn's deadline and the disconnect
graces on by that time, so no turn runs out and no seat is lost while no
server was there. When Redis has no word
of the game's last owner (it restarted empty), the time since the game's
last step counts as unowned.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Coroutine
from typing import Any, cast

import redis.asyncio as aioredis
from django.conf import settings
from redis.commands.core import AsyncScript

from common import redis_roles
from common.channel_layer import ChannelLayer, channel_layer
from common.database_threads import off_the_loop
from common.unavailable import DATABASE_UNAVAILABLE, first_line
from games.live import bot_pool, journal, loading
from games.live.leases import (
    HEARTBEAT_SECONDS,
    LEASE_SECONDS,
    PASS,
    RENEW,
    TAKE,
    node_key,
    owner_key,
)
from games.live.owner import RECENT_STEPS, GameOwner
from games.live.probe import LayerProbe
from games.live.registry import Registry
from games.live.relay import Relay
from games.live.steps import PLAYING
from games.live.thinking import Thought
from joker.actions import Action
from joker.state import State

logger = logging.getLogger(__name__)

SEEN = "pulka:live:seen"
# How long after a heartbeat failed (Redis away, most likely) Redis is still
# doubted: longer than the slowest retry of a session notice it missed
# (``accounts.sockets.Retries``, 30 s), so that notice has been sent again.
DOUBT_SECONDS = 60.0
# Orphaned games taken over per heartbeat, at most (``relay.ADOPT_AT_ONCE``
# at once).
ADOPT_PER_BEAT = 1000
# Games handed back to their home per heartbeat, at most: each waits for
# its step in progress, and each closes its sockets, which reconnect.
HAND_BACK_PER_BEAT = 100


class Hall:
    """A server process's live games. Its relay knows it as a
    ``relay.RelaysHall`` and its owners as an ``owner.OwnersHall``: the
    type checker holds it to both where it hands itself over (``Relay(self)``,
    ``GameOwner(self, ...)``)."""

    def __init__(self) -> None:
        self.owners = Registry()  # the games owned here, and those just over
        self.taking_over: asyncio.Task[None] | None = None  # orphans being adopted
        # Games being passed to their home process, back from the dead.
        self.handing_back: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[Any]] = set()
        self.channel = ""
        # The channel layer, Redis and the owners' writer, opened by ``start``.
        self.layer: ChannelLayer
        self.redis: aioredis.Redis
        self.renew: AsyncScript
        self.take: AsyncScript
        self.pass_lease: AsyncScript
        self.journal: journal.Journal
        self.started = False
        # When Redis last answered a heartbeat, and when one last failed.
        self.heartbeat_at = 0.0
        self.heartbeat_failed_at: float | None = None
        self.relay = Relay(self)  # its dealings with the other processes
        self.probe = LayerProbe(self)  # whether the channel layer stalled

    async def start(self) -> None:
        self.layer = channel_layer()
        # A blocking pool: a burst of sockets waits for a connection rather
        # than failing with "too many connections".
        self.redis = redis_roles.async_client(
            "live", max_connections=32, decode_responses=True
        )
        self.renew = self.redis.register_script(RENEW)
        self.take = self.redis.register_script(TAKE)
        self.pass_lease = self.redis.register_script(PASS)
        self.journal = journal.Journal()
        await self.journal.open()
        self.channel = await self.layer.new_channel("hall.")
        await self.relay.start()
        await self.probe.start()
        self.spawn(self._heartbeat_loop())
        self.heartbeat_at = time.monotonic()
        self.started = True

    async def stop(self) -> None:
        for owner in self.owners.all_owners():
            owner.stop()
        for task in list(self.tasks):
            task.cancel()
        keys = [owner_key(game_id) for game_id in self.owners.live_ids()]
        if self.relay.node:
            keys.append(node_key(self.relay.node))
        if keys:
            # Give the games up at once rather than when the leases expire
            # (Redis down: they expire, and the process still stops).
            try:
                await self.redis.delete(*keys)
            except Exception:
                logger.warning("hall %s: leases left to expire", self.channel)
        await self.relay.stop()
        await self.journal.close()
        await self.redis.aclose()
        await self.redis.connection_pool.disconnect()

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if task.cancelled() or (error := task.exception()) is None:
            return
        if isinstance(error, DATABASE_UNAVAILABLE):
            # An outage to wait out (the sweep hands the game over again,
            # a socket reconnects): one line, not a traceback.
            logger.warning(
                "a live-game task met the database unavailable (%s)",
                first_line(error),
            )
            return
        logger.error("a live-game task failed", exc_info=error)

    async def think(
        self, bot: str, state: State, deal_actions: list[Action]
    ) -> Thought:
        """A practice bot's move, thought in the bot pool, off the loop."""
        return await bot_pool.think(bot, state, deal_actions)

    # Owning

    async def owner_here(self, game_id: int) -> GameOwner | None:
        """This process's owner of the game, taking it over if nobody
        holds it; None when another process owns it or it is over."""
        owner = self.owners.get(game_id)
        if owner is not None:
            return owner
        return await self.adopt(game_id)

    async def adopt(self, game_id: int) -> GameOwner | None:
        return (await self.adopt_many([game_id])).get(game_id)

    async def adopt_many(self, game_ids: list[int]) -> dict[int, GameOwner]:
        """Take over those of the games that nobody holds; the owners made.
        A game already being taken over here is waited for, not read twice."""
        return await self.owners.adopt_once(game_ids, self._adopt_many)

    async def _adopt_many(self, game_ids: list[int]) -> dict[int, GameOwner]:
        if not game_ids:
            return {}
        taken_leases = await self.take(
            keys=[owner_key(game_id) for game_id in game_ids],
            args=[self.channel, int(LEASE_SECONDS * 1000)],
        )
        won = [g for g, taken in zip(game_ids, taken_leases, strict=True) if taken]
        if not won:
            return {}
        # One read of every game, whatever their number: what makes a
        # takeover of a whole dead server's games quick.
        loaded, recent, last_step = await off_the_loop(loading.load_to_own)(
            won, RECENT_STEPS
        )
        pipe = self.redis.pipeline(transaction=False)
        for game_id in won:
            pipe.zscore(SEEN, game_id)
        marks = await pipe.execute()
        wall = time.time()
        taken: dict[int, GameOwner] = {}
        gone: list[int] = []
        for game_id, seen in zip(won, marks, strict=True):
            live = loaded.get(game_id)
            if live is None or live.status != PLAYING:
                gone.append(game_id)
                continue
            if seen is None and game_id in last_step:
                # Redis does not know when the game was last owned: nobody
                # has owned it since its last step was written, or Redis
                # lost its memory (the embedded one keeps nothing on disk,
                # so a restart of the platform forgets). The last step is
                # then the last time the game is known to have been served;
                # without this a turn would run out for the outage.
                seen = last_step[game_id]
            if seen is not None and wall - seen > 2 * HEARTBEAT_SECONDS:
                # Nobody owned the game for a while: nobody loses time for
                # that, neither a turn nor a disconnect grace.
                live.shift_clocks(wall - seen)
                await self.journal.set_clocks(live)
            taken[game_id] = GameOwner(self, live, recent[game_id])
            self.owners.add(taken[game_id])
        pipe = self.redis.pipeline(transaction=False)
        if taken:
            pipe.zadd(SEEN, {str(game_id): wall for game_id in taken})
        for game_id in gone:
            pipe.delete(owner_key(game_id))
            pipe.zrem(SEEN, game_id)
        await pipe.execute()
        for game_id, owner in taken.items():
            await owner.start(silent_since=time.monotonic())
            await self.relay.owned_here(game_id)
            logger.info("took game %s over (version %s)", game_id, owner.live.version)
        return taken

    def game_over(self, owner: GameOwner) -> None:
        """The game ended: give the lease up; keep answering its sockets."""
        if self.owners.finish(owner):
            self.spawn(self._release(owner.game_id))

    def forget(self, owner: GameOwner) -> None:
        """The game was deleted: stop owning it."""
        owner.stop()
        if self.owners.drop(owner):
            self.spawn(self._release(owner.game_id))

    async def _release(self, game_id: int) -> None:
        await self.redis.delete(owner_key(game_id))
        await self.redis.zrem(SEEN, game_id)

    async def hand_back(self, game_id: int, home: str) -> None:
        """Pass the game to its home process (its hall's channel ``home``),
        which is back: the proxy sends the game's sockets there again
        (``routing``). Between two steps: the lease goes to the home by
        name, this owner stops, its sockets are closed with 4012 (the page
        reconnects, through the proxy, to the home), and the home is told
        to read the game now (its timers)."""
        owner = self.owners.live(game_id)
        if owner is None:
            return
        async with owner.lock:
            if owner.gone:
                return
            passed = await self.pass_lease(
                keys=[owner_key(game_id)],
                args=[self.channel, home, int(LEASE_SECONDS * 1000)],
            )
            if not passed:
                return  # the lease was lost meanwhile: the heartbeat yields it
            self.owners.drop_game(game_id)
            owner.stop()
        logger.info("handed game %s back to its home", game_id)
        for attached in list(owner.sockets.values()):
            self.spawn(attached.sink.close(4012))
        await self.relay.tell_home(game_id, home)

    def _yield(self, game_id: int) -> None:
        """The lease was lost (this process stalled): another process owns
        the game now; its sockets reconnect there."""
        owner = self.owners.drop_game(game_id)
        if owner is None:
            return
        owner.stop()
        logger.warning("lost the lease of game %s", game_id)
        for attached in list(owner.sockets.values()):
            self.spawn(attached.sink.close(4012))

    # Heartbeat

    async def _heartbeat_loop(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            self.spawn(self.probe.send())
            try:
                await self.heartbeat()
            except Exception:  # Redis away for a moment: try again next beat
                self.heartbeat_failed_at = time.monotonic()
                logger.exception("heartbeat failed")
            else:
                self.heartbeat_at = time.monotonic()

    def trusts_redis(self) -> bool:
        """Whether Redis answered the latest heartbeat and has not failed
        one lately: then what goes through it (a logout's close for a
        socket, say) arrives."""
        at = time.monotonic()
        failed = self.heartbeat_failed_at
        return at - self.heartbeat_at < 2 * HEARTBEAT_SECONDS and (
            failed is None or at - failed > DOUBT_SECONDS
        )

    async def heartbeat(self) -> None:
        wall = time.time()
        await self.relay.say_alive()
        games = self.owners.live_ids()
        if games:
            kept = await self.renew(
                keys=[owner_key(g) for g in games],
                args=[self.channel, int(LEASE_SECONDS * 1000)],
            )
            held = []
            for game_id, kept_it in zip(games, kept, strict=True):
                if kept_it:
                    held.append(game_id)
                else:
                    self._yield(game_id)
            if held:
                await self.redis.zadd(SEEN, dict.fromkeys(map(str, held), wall))
        for owner in self.owners.live_owners():
            await owner.drop_silent(settings.PULKA_SOCKET_SILENCE_SECONDS)
        self.owners.sweep_finished()
        await self.relay.follow_new_owners()
        # The members, decoded (``decode_responses``): the games' ids.
        found = cast(
            list[str],
            await self.redis.zrangebyscore(
                SEEN, "-inf", wall - LEASE_SECONDS, start=0, num=ADOPT_PER_BEAT
            ),
        )
        orphans = await self.relay.mine_to_take([int(game_id) for game_id in found])
        if orphans and (self.taking_over is None or self.taking_over.done()):
            # Beside the heartbeat, which must go on renewing the leases.
            self.taking_over = self.spawn(self.relay.adopt_in_batches(orphans))
        homes = await self.relay.homes_elsewhere(self.owners.live_ids())
        if homes and (self.handing_back is None or self.handing_back.done()):
            self.handing_back = self.spawn(self._hand_back_all(homes))

    async def _hand_back_all(self, homes: dict[int, str]) -> None:
        for game_id, home in list(homes.items())[:HAND_BACK_PER_BEAT]:
            await self.hand_back(game_id, home)


# One hall per event loop: a server has one loop; tests start one per test.
_halls: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hall] = (
    weakref.WeakKeyDictionary()
)


async def hall() -> Hall:
    loop = asyncio.get_running_loop()
    current = _halls.get(loop)
    if current is None:
        current = _halls[loop] = Hall()
        await current.start()
    return current


def owned_games() -> int:
    """How many live games this process owns now."""
    return sum(len(current.owners) for current in list(_halls.values()))


async def stop_hall() -> None:
    current = _halls.pop(asyncio.get_running_loop(), None)
    if current is not None:
        await current.stop()
    if not _halls:
        bot_pool.stop()
