"""Helpers for the live tests: server processes, signed-in users, a table
client over a real WebSocket, and database reads from inside a client."""

from __future__ import annotations

import asyncio
import json
import time

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from websockets.asyncio.client import connect

from config.tasks import ping
from tests.factories import UserFactory
from tests.following import Gap, take

# Short timers for every process, the test process included.
TURN_SECONDS_ANY = True
# Bots move after this pause; whole tournaments here make hundreds of bot
# moves, so it is short.
BOT_MOVE_SECONDS = 0.05
DISCONNECT_GRACE_SECONDS = 2.0
# A socket not heard from for this long is gone (clients ping every second).
SOCKET_SILENCE_SECONDS = 3.0
SWEEP_EVERY_SECONDS = 1
SWEEP_MARGIN_SECONDS = 1.0
TOURNAMENT_TICK_SECONDS = 1


def wait_until(predicate, timeout: float, what: str, interval: float = 0.1):
    """Poll ``predicate`` until it returns something true; return that."""
    limit = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > limit:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


def barrier(timeout: float = 20) -> None:
    """Return once the worker has run every task sent before this call: one
    solo worker takes the queue in order (tasks with an ETA excepted)."""
    assert ping.apply_async().get(timeout=timeout) == "pong"


def wait_all_disconnected(game_id: int, timeout: float = 10) -> None:
    """Wait until the servers have handled every socket's close, so that
    nothing of this test is still running when its data is flushed."""
    from games.models import Game, Seat

    def every_seat_away() -> bool:
        # The owner writes each seat's presence as it changes: away (the
        # time its grace runs out) once its last socket has closed.
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.PLAYING:
            return True
        left = set(
            Seat.objects.filter(table_id=game.table_id, left=True).values_list(
                "number", flat=True
            )
        )
        return all(
            due is not None
            for seat, due in game.presence.items()
            if int(seat) not in left
        )

    wait_until(every_seat_away, timeout, "the servers to see every socket close")


def session_cookie(user) -> str:
    """A signed-in session for ``user``, stored in the database the servers
    read; returns the session key for the ``sessionid`` cookie."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "accounts.backends.PasswordBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session.session_key


async def db_call(function, *args):
    """Run an ORM read from inside a client coroutine, in a thread whose
    connection is closed afterwards (the test database is dropped at the end,
    which an idle connection left open would block)."""

    def run():
        try:
            return function(*args)
        finally:
            connection.close()

    return await asyncio.to_thread(run)


async def eventually(function, timeout: float, what: str, interval: float = 0.1):
    """``wait_until`` for a client coroutine: poll an ORM read in a thread."""
    limit = time.monotonic() + timeout
    while True:
        value = await db_call(function)
        if value:
            return value
        if time.monotonic() > limit:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(interval)


PING_SECONDS = 1.0


def first(legal: list):
    return legal[0]


class TableClient:
    """A player's WebSocket at a live table.

    Keeps the latest snapshot (from ``sync`` and ``update``), every message
    received, and the public events of every update by version.
    """

    def __init__(self, base_url: str, game_id: int, session_key: str):
        self.url = f"{base_url.replace('http', 'ws', 1)}/ws/games/{game_id}/"
        self.origin = base_url
        self.session_key = session_key
        self.ws = None
        self.snapshot: dict | None = None
        self.messages: list[dict] = []
        self.updates: list[dict] = []
        self.events: dict[int, list] = {}
        self.acks: dict[str, dict] = {}
        self.errors: list[dict] = []
        self.acted_on: int | None = None

    async def __aenter__(self):
        self.ws = await connect(
            self.url,
            origin=self.origin,
            additional_headers={"Cookie": f"sessionid={self.session_key}"},
            proxy=None,
            compression=None,
            open_timeout=10,
        )
        # The presence message of this very connection may come first.
        while self.snapshot is None:
            await self.receive()
        self.pinger = asyncio.get_running_loop().create_task(self._ping())
        return self

    async def _ping(self):
        # As the site's pages do: a socket not heard from is taken for gone.
        while True:
            await asyncio.sleep(PING_SECONDS)
            try:
                await self.send({"type": "ping"})
            except Exception:  # closed: the test decides what that means
                return

    async def __aexit__(self, *exc_info):
        self.pinger.cancel()
        await self.ws.close()

    @property
    def you(self) -> int:
        return self.snapshot["you"]

    async def receive(self, timeout: float = 10) -> dict:
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(message)
        kind = message["type"]
        if kind == "sync":
            # A resync (a new owner, a reconnect): an action sent before it
            # may have been lost; sending it again, same id, applies it once.
            self.acted_on = None
        if kind in ("sync", "update"):
            try:
                self.snapshot = take(self.snapshot, message)
            except Gap:
                # A step was missed: only a sync can catch up.
                await self.send({"type": "sync", "version": self.snapshot["version"]})
            for step in message["events"]:
                self.events[step["version"]] = step["events"]
            if kind == "update":
                self.updates.append(message)
        elif kind == "ack":
            self.acks[message["id"]] = message
        elif kind == "error":
            self.errors.append(message)
        return message

    def my_turn(self) -> bool:
        snap = self.snapshot
        return (
            snap["status"] == "playing"
            and snap["view"]["turn"] == snap["you"]
            and bool(snap["view"].get("legal"))
            and self.acted_on != snap["version"]
        )

    async def act(self, choose=first) -> str:
        """Send the first legal choice of the latest snapshot (or the one
        ``choose`` picks from the legal list); returns the id."""
        snap = self.snapshot
        version = snap["version"]
        self.acted_on = version
        client_id = f"v{version}"
        action = choose(snap["view"]["legal"])
        await self.send(
            {"type": "action", "id": client_id, "version": version, "action": action}
        )
        return client_id

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))

    async def play_until(self, done, timeout: float, choose=first) -> None:
        """Play the first legal choice (or ``choose``'s) whenever it is this
        seat's turn, until ``done(self)`` is true."""
        limit = asyncio.get_running_loop().time() + timeout
        while not done(self):
            if self.my_turn():
                await self.act(choose)
                continue
            left = limit - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(
                    f"seat {self.you} timed out at version {self.snapshot['version']}"
                )
            try:
                await self.receive(timeout=min(left, 10))
            except TimeoutError:
                continue
            assert not self.errors, self.errors

    async def receive_until(self, done, timeout: float) -> None:
        """Receive until ``done(self)`` is true."""
        limit = asyncio.get_running_loop().time() + timeout
        while not done(self):
            left = limit - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(
                    f"seat {self.you} timed out at version {self.snapshot['version']}"
                )
            try:
                await self.receive(timeout=left)
            except TimeoutError:
                continue

    def public_events(self, kind: str) -> list[tuple[int, dict]]:
        return [
            (version, event)
            for version, events in sorted(self.events.items())
            for event in events
            if event["type"] == kind
        ]


class Person:
    """A user with a signed-in session the servers accept."""

    def __init__(self, username: str):
        self.user = UserFactory(username=username)
        self.session_key = session_cookie(self.user)


def shown_connected(client: TableClient, number: int) -> bool | None:
    """Whether the client's latest word on the seats shows ``number`` as
    connected (None before any)."""
    for message in reversed(client.messages):
        if "seats" in message:
            return message["seats"][number]["connected"]
    return None
