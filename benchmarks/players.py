"""Real players on one node: stepped stages of N players signing in, opening
the lobby and playing over the site's own protocol, every error counted,
next to a durable echo's capacity under the same sockets in the same run.

    python benchmarks/players.py [--stages 40,120,200] [--stage-seconds 120]
                                 [--ramp-per-minute 200] [--echo-beyond 2]
                                 [--memory-every S] [--port P] [--smoke]

What it does, all on 127.0.0.1:

1. Starts an embedded PostgreSQL and Redis of its own
   (``servers.PrivateServices``), creates and migrates the database
   ``pulka_players`` there, and starts the platform as ``make run`` does
   (``scripts/run_platform.py``'s commands): one uvicorn process, a Celery
   worker and Celery beat, with the site's own settings (DEBUG off, every
   socket limit and throttle as configured, bots pausing 1 s). The uvicorn
   process serves ``live_tables.make_application``: the site, and the raw
   and durable echoes at /echo/ and /echo-durable/, which no player uses.
2. Creates the accounts in bulk (the ORM, one password hash for all); each
   player then signs in through the real login page, as a browser does.
3. Adds players in parties at ``--ramp-per-minute`` sign-ins a minute until
   the stage's count is reached, then holds the stage for
   ``--stage-seconds``; the next stage adds more players to those playing.
   The mix, in cycles of 16 players (the README says the same):

   - 2 play casual Japanese Joker (to 11) against a practice bot, at human
     pace (1.5 to 4.5 s a move);
   - 2 play casual Joker (Georgian club rules) with three practice bots, at
     human pace;
   - 2 play casual Japanese Joker (to 11) against each other flat out
     (each move as soon as it is theirs, within the socket's message rate);
   - 2 play ranked Japanese Joker (to 21) against each other at human pace,
     for a 10-coin stake;
   - 4 play ranked Joker against each other at human pace, no stake;
   - 4 play casual Joker against each other at human pace.

   A party signs in, each player opens the lobby (the page, its /ws/lobby/
   and /ws/me/ sockets; the table lists fetched again, one request at a
   time, whenever the lobby socket says they changed), browses it for 2 to
   6 s, then its first player creates the table through the lobby's form
   and seats the bots, the others take their seats, and each opens the
   table page, waits for its game as the page does (state.json) and plays
   over /ws/games/<id>/ with /ws/me/ beside it. Every socket pings every
   5 s and keeps under 8 messages a second (the site allows 10, bursts of
   30); a player has at most 3 sockets open (the site allows 8). Every
   player chats now and then (a quick phrase or a few words, at most one
   message in 20 s, under the chat's 5 in 10 s), and the human-paced ones
   reconnect their table socket now and then (closed, reopened 1 to 3 s
   later, well within the 60 s grace). When a game is over the party goes
   back to the lobby and plays another.
4. Counts every error, classified, by the stage it falls in (its ramp and
   hold): an ``error`` frame (a correct client gets none), a socket closed
   that the client did not close (by code), an HTTP answer 4xx or 5xx (or
   a refusal shown on the page, or no answer), an ``ack`` later than 15 s,
   a failed ``/health/`` (asked every 5 s), an exception in a client.
5. Measures in each stage's hold (not cumulative): the move round trip
   (action to ``ack``) p50/p99, sign-ins, the CPU (share of one core) and
   the largest RSS of each process (the web process with its bot pool, the
   Celery worker, beat, PostgreSQL, Redis, this client), and the database
   connections (``pg_stat_activity``, every 2 s, mean and max).
6. Then the players leave, their unfinished games are annulled (as an
   operator would, so that their bots stop), and the durable echo is run:
   for each stage's count of players, as many clients with the same
   sockets (one to the raw echo for /ws/me/, one to the durable echo for
   the table's), the same pings and the table sockets' frame rate measured
   in that stage, held as long; then doubling past the last stage
   (``--echo-beyond`` times) until a stage fails.
7. At the end the ledger (all balances sum to 0, every balance equals its
   entries), every finished game's record replayed through the engine
   (``joker.record.replay``, what ``python -m games.engine.replay`` runs),
   and every acked action stored exactly once (its game, its id, the
   version the ack named). It prints the largest stage held with 0 errors
   next to the largest the echo held, and exits 1 when integrity fails.

``--smoke`` is a minute or two: one stage of 16 players (one cycle of the
mix), 40 s held, the echo at 16.

``--memory-every S`` is the memory run (say ``--stages 120 --stage-seconds
3600 --memory-every 300``): the web process traces its allocations, its
private RSS is sampled every 10 s and a heap snapshot taken every S seconds
(``memory_watch.py``); at the end the RSS over the hold, whether it is flat
within 5% over the last half, and the lines whose memory grew most in that
half. The echo is not run then.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import memory_watch  # noqa: E402
import servers  # noqa: E402
from live_tables import ECHO_TABLE, open_socket, percentile  # noqa: E402
from servers import BASE_DIR, stop_server, wait_for_health  # noqa: E402

sys.path.insert(0, str(BASE_DIR / "scripts"))

from common.redis_roles import celery_url  # noqa: E402

DATABASE = "pulka_players"
PASSWORD = "players-bench-password"
PING_SECONDS = 5
# Messages a second a socket sends at most (the site allows 10, bursts of 30).
SEND_RATE = 8
ACK_LIMIT = 15  # seconds: a later ack is an error
HUMAN_THINK = (1.5, 4.5)
LOBBY_BROWSE = (2.0, 6.0)
CHAT_EVERY = (20.0, 60.0)  # at most one message in 20 s a player
RECONNECT_EVERY = (60.0, 150.0)
RECONNECT_AWAY = (1.0, 3.0)
HEALTH_EVERY = 5
SAMPLE_EVERY = 2
HTTP_TIMEOUT = 60
OPEN_TIMEOUT = 60
WAIT_FOR_GAME = 120  # seconds a table page waits for its game to start
SILENT_TABLE = 120  # seconds without a frame at a table: given up
PHRASES = ["hi", "good_luck", "well_played", "thanks", "nice_trick", "oops"]
WORDS = ["gl", "nice one", "hmm", "ok", "wp", "my bad"]


@dataclass(frozen=True)
class Kind:
    """A kind of party: who sits at its tables and how they play."""

    name: str
    people: int
    bots: int
    form: dict
    flat_out: bool = False


JAPANESE = {"profile": "japanese", "target": "11"}
JOKER = {"profile": "georgian-club"}
KINDS = {
    "japanese-bot": Kind("japanese-bot", 1, 1, JAPANESE),
    "joker-bots": Kind("joker-bots", 1, 3, JOKER),
    "japanese-fast": Kind("japanese-fast", 2, 0, JAPANESE, flat_out=True),
    "ranked-japanese": Kind(
        "ranked-japanese", 2, 0, {"ranked": "on", "category": "japanese", "stake": "10"}
    ),
    "ranked-joker": Kind("ranked-joker", 4, 0, {"ranked": "on", "category": "joker"}),
    "joker-people": Kind("joker-people", 4, 0, JOKER),
}
# One cycle of the mix: 16 players.
MIX = [
    "japanese-bot", "japanese-bot", "joker-bots", "joker-bots", "japanese-fast",
    "ranked-japanese", "ranked-joker", "joker-people",
]  # fmt: skip
# The lobby form as a browser sends it, defaults filled in.
FORM_DEFAULTS = {
    "profile": "georgian-club",
    "schedule": "classic",
    "hisht_penalty": "200",
    "deductions": "on",
    "scoring": "online",
    "target": "21",
    "turn_seconds": "30",
    "category": "joker",
    "stake": "0",
    "settlement": "pot",
    "points_per_coin": "10",
}
ERROR_CLASSES = ("error frame", "close", "http", "late ack", "health", "exception")


# What the clients saw.


@dataclass
class Record:
    started: float = field(default_factory=time.monotonic)
    errors: list = field(default_factory=list)  # (time, class, detail)
    trips: list = field(default_factory=list)  # (time, seconds)
    sign_ins: list = field(default_factory=list)  # (time, seconds)
    table_frames: list = field(default_factory=list)  # times of table frames sent
    acked: list = field(default_factory=list)  # (game, client id, version)
    finished: set = field(default_factory=set)  # game ids seen over
    games: set = field(default_factory=set)

    def error(self, kind: str, detail: str) -> None:
        self.errors.append((time.monotonic(), kind, detail[:100]))


class Bucket:
    """A token bucket: ``SEND_RATE`` messages a second, a burst of as many."""

    def __init__(self):
        self.tokens = float(SEND_RATE)
        self.at = time.monotonic()

    async def take(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(SEND_RATE, self.tokens + (now - self.at) * SEND_RATE)
            self.at = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / SEND_RATE)


class Socket:
    """One WebSocket of a page: it pings every 5 s within the message rate;
    a close the client did not ask for, and any ``error`` frame, is counted."""

    def __init__(self, record: Record, name: str):
        self.record = record
        self.name = name
        self.ws = None
        self.bucket = Bucket()
        self.closing = False
        self.tasks: list[asyncio.Task] = []

    async def open(self, base: str, path: str, cookie: str) -> Socket:
        url = base.replace("http", "ws", 1) + path
        self.ws = await asyncio.wait_for(
            open_socket(url, base, cookie), timeout=OPEN_TIMEOUT
        )
        self.tasks.append(asyncio.create_task(self._pinger()))
        return self

    async def _pinger(self) -> None:
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            while True:
                await asyncio.sleep(PING_SECONDS)
                await self.send({"type": "ping"})

    async def send(self, message: dict) -> None:
        await self.bucket.take()
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float) -> dict | None:
        """The next frame, None after ``timeout``; raises ConnectionClosed."""
        try:
            raw = await asyncio.wait_for(self.ws.recv(), timeout=timeout)
        except TimeoutError:
            return None
        message = json.loads(raw)
        if message.get("type") == "error":
            self.record.error(
                "error frame", f"{self.name} {message.get('code')}: {message}"
            )
        return message

    def closed_unasked(self, closed) -> None:
        if not self.closing:
            code = closed.rcvd.code if closed.rcvd else "none"
            self.record.error("close", f"{self.name} {code}")

    def drain(self, on_message=None) -> None:
        """Read every frame in the background (a socket the page only
        listens on)."""
        from websockets.exceptions import ConnectionClosed

        async def reader():
            try:
                while True:
                    message = await self.recv(3600)
                    if message is not None and on_message is not None:
                        on_message(message)
            except ConnectionClosed as closed:
                self.closed_unasked(closed)

        self.tasks.append(asyncio.create_task(reader()))

    async def close(self) -> None:
        self.closing = True
        for task in self.tasks:
            task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), timeout=10)


# HTTP: requests on threads (a player's session is used by one call at a time).

HTTP_POOL = ThreadPoolExecutor(max_workers=32)


class Browser:
    """A player's cookies and pages over HTTP."""

    def __init__(self, base: str, record: Record):
        import requests

        self.base = base
        self.record = record
        self.session = requests.Session()
        self.session.trust_env = False

    async def request(self, method: str, path: str, data: dict | None = None):
        def call():
            return self.session.request(
                method, self.base + path, data=data, timeout=HTTP_TIMEOUT
            )

        try:
            response = await asyncio.get_running_loop().run_in_executor(HTTP_POOL, call)
        except Exception as error:  # noqa: BLE001 (every failure is counted)
            self.record.error("http", f"{method} {path}: {type(error).__name__}")
            return None
        for answer in [*response.history, response]:
            if answer.status_code >= 400:
                self.record.error("http", f"{method} {path}: {answer.status_code}")
                return None
        return response

    async def session_post(self, path: str) -> None:
        """A POST whose answer does not matter."""
        data = {"csrfmiddlewaretoken": self.cookie("csrftoken")}

        def call():
            with contextlib.suppress(Exception):
                self.session.post(self.base + path, data=data, timeout=HTTP_TIMEOUT)

        await asyncio.get_running_loop().run_in_executor(HTTP_POOL, call)

    def cookie(self, name: str) -> str:
        return self.session.cookies.get(name, "")

    async def post(self, path: str, data: dict | None = None):
        return await self.request(
            "POST",
            path,
            {**(data or {}), "csrfmiddlewaretoken": self.cookie("csrftoken")},
        )


# The players.


class Player:
    def __init__(self, run: Run, index: int, kind: Kind, seat: int):
        self.run = run
        self.index = index
        self.kind = kind
        self.seat = seat  # its place in the party: 0 makes the tables
        self.username = f"player{index}"
        self.browser = Browser(run.base, run.record)
        self.rng = random.Random(index)
        self.sockets: list[Socket] = []
        self.actions = 0
        self.next_chat = time.monotonic() + self.rng.uniform(*CHAT_EVERY)
        self.next_reconnect = time.monotonic() + self.rng.uniform(*RECONNECT_EVERY)

    @property
    def record(self) -> Record:
        return self.run.record

    @property
    def human(self) -> bool:
        return not self.kind.flat_out

    async def sign_in(self) -> bool:
        began = time.monotonic()
        if await self.browser.request("GET", "/accounts/login/") is None:
            return False
        answer = await self.browser.post(
            "/accounts/login/", {"username": self.username, "password": PASSWORD}
        )
        if answer is None:
            return False
        if not answer.url.endswith("/lobby/"):
            self.record.error("http", f"login refused for {self.username}")
            return False
        self.record.sign_ins.append((time.monotonic(), time.monotonic() - began))
        return True

    async def leave_page(self) -> None:
        for socket in self.sockets:
            await socket.close()
        self.sockets = []

    async def open(self, path: str, name: str) -> Socket:
        socket = Socket(self.record, name)
        await socket.open(self.run.base, path, self.browser.cookie("sessionid"))
        self.sockets.append(socket)
        return socket

    async def lobby(self, loaded: bool) -> None:
        """The lobby page: its sockets, browsed for a while, the lists
        fetched again (one request at a time) when they change."""
        await self.leave_page()
        if not loaded and await self.browser.request("GET", "/lobby/") is None:
            return
        (await self.open("/ws/me/", "me")).drain()
        lobby = await self.open("/ws/lobby/", "lobby")
        state = {"fetching": None, "again": False}

        async def refresh():
            while True:
                state["again"] = False
                await self.browser.request("GET", "/lobby/tables/")
                if not state["again"]:
                    break
            state["fetching"] = None

        def on_message(message):
            if message.get("type") == "lobby":
                if state["fetching"] is None:
                    state["fetching"] = asyncio.create_task(refresh())
                else:
                    state["again"] = True

        lobby.drain(on_message)
        await asyncio.sleep(self.rng.uniform(*LOBBY_BROWSE))
        if time.monotonic() >= self.next_chat:
            self.next_chat = time.monotonic() + self.rng.uniform(*CHAT_EVERY)
            self.actions += 1
            await lobby.send({"type": "chat", "id": f"l{self.actions}", "phrase": "hi"})
        if state["fetching"] is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(state["fetching"]), HTTP_TIMEOUT)

    async def create_table(self) -> int | None:
        answer = await self.browser.post(
            "/tables/new/", {**FORM_DEFAULTS, **self.kind.form}
        )
        table_id = table_of(answer)
        if answer is not None and table_id is None:
            self.record.error("http", f"table refused: {refusal(answer.text)}")
            return None
        for number in range(self.kind.people, self.kind.people + self.kind.bots):
            answer = await self.browser.post(
                f"/tables/{table_id}/seats/{number}/bot/", {"bot": "practice"}
            )
            if answer is not None and table_of(answer) is None:
                self.record.error("http", f"bot refused: {refusal(answer.text)}")
        return table_id

    async def take_seat(self, table_id: int) -> bool:
        answer = await self.browser.post(f"/tables/{table_id}/seats/{self.seat}/take/")
        if answer is not None and table_of(answer) is None:
            self.record.error("http", f"seat refused: {refusal(answer.text)}")
            return False
        return answer is not None

    async def leave_table(self, table_id: int) -> None:
        """Leave a table that did not start (a refusal is no error here: the
        player may not have been seated)."""
        await self.browser.session_post(f"/tables/{table_id}/leave/")

    async def game_of(self, table_id: int) -> int | None:
        """The table page, then its state until the game starts."""
        await self.leave_page()
        if await self.browser.request("GET", f"/tables/{table_id}/") is None:
            return None
        (await self.open("/ws/me/", "me")).drain()
        limit = time.monotonic() + WAIT_FOR_GAME
        while time.monotonic() < limit and not self.run.stopping:
            answer = await self.browser.request("GET", f"/tables/{table_id}/state.json")
            if answer is None:
                return None
            game = answer.json().get("game")
            if game is not None:
                return game
            await asyncio.sleep(1)
        if not self.run.stopping:
            self.record.error("exception", f"table {table_id} never started")
        return None

    async def play(self, game_id: int) -> None:
        """Play the seat until the game is over (or the run stops)."""
        from websockets.exceptions import ConnectionClosed

        self.record.games.add(game_id)
        path = f"/ws/games/{game_id}/"
        table = await self.open(path, "table")
        snapshot = None
        pending = None  # (client id, sent at, flagged late)
        acted_on = None
        heard = time.monotonic()
        while not self.run.stopping:
            now = time.monotonic()
            try:
                if snapshot is not None and snapshot["status"] != "playing":
                    self.record.finished.add(game_id)
                    return
                view = snapshot["position"] if snapshot else {}
                if (
                    snapshot is not None
                    and pending is None
                    and view.get("legal")
                    and acted_on != snapshot["version"]
                ):
                    acted_on = snapshot["version"]
                    if self.human:
                        await asyncio.sleep(self.rng.uniform(*HUMAN_THINK))
                    self.actions += 1
                    client_id = f"p{self.index}a{self.actions}"
                    pending = (client_id, time.monotonic(), False)
                    self.record.table_frames.append(time.monotonic())
                    await table.send(
                        {
                            "type": "action",
                            "id": client_id,
                            "version": snapshot["version"],
                            "action": view["legal"][0],
                        }
                    )
                elif snapshot is not None and now >= self.next_chat:
                    self.next_chat = now + self.rng.uniform(*CHAT_EVERY)
                    self.actions += 1
                    chat = {"type": "chat", "id": f"c{self.actions}"}
                    if self.rng.random() < 0.5:
                        chat["phrase"] = self.rng.choice(PHRASES)
                    else:
                        chat["text"] = self.rng.choice(WORDS)
                    self.record.table_frames.append(time.monotonic())
                    await table.send(chat)
                elif (
                    self.human
                    and snapshot is not None
                    and pending is None
                    and now >= self.next_reconnect
                ):
                    self.next_reconnect = now + self.rng.uniform(*RECONNECT_EVERY)
                    await table.close()
                    self.sockets.remove(table)
                    await asyncio.sleep(self.rng.uniform(*RECONNECT_AWAY))
                    table = await self.open(path, "table")
                    snapshot = None
                    heard = time.monotonic()
                message = await table.recv(1.0)
                if (
                    pending
                    and not pending[2]
                    and time.monotonic() - pending[1] > ACK_LIMIT
                ):
                    self.record.error("late ack", f"game {game_id} {pending[0]}")
                    pending = (*pending[:2], True)
                if message is None:
                    if time.monotonic() - heard > SILENT_TABLE:
                        self.record.error("exception", f"game {game_id} silent")
                        return
                    continue
                heard = time.monotonic()
                kind = message["type"]
                if kind == "sync":
                    snapshot = {**message, "position": message["view"]}
                elif (
                    kind == "update"
                    and snapshot
                    and message["version"] > snapshot["version"]
                ):
                    if message["events"][0]["version"] != snapshot["version"] + 1:
                        await table.send(
                            {"type": "sync", "version": snapshot["version"]}
                        )
                    snapshot = message
                elif kind == "ack" and pending and message["id"] == pending[0]:
                    seconds = time.monotonic() - pending[1]
                    self.record.trips.append((time.monotonic(), seconds))
                    self.record.acked.append((game_id, pending[0], message["version"]))
                    if seconds > ACK_LIMIT and not pending[2]:
                        self.record.error("late ack", f"game {game_id} {pending[0]}")
                    pending = None
                elif kind == "error" and pending and message.get("id") == pending[0]:
                    pending = None
            except ConnectionClosed as closed:
                table.closed_unasked(closed)
                if self.run.stopping:
                    return
                # Reconnect, as the page does; the sync says where things are.
                self.sockets.remove(table)
                await asyncio.sleep(1)
                table = await self.open(path, "table")
                snapshot, pending = None, None


def table_of(answer) -> int | None:
    """The table a form's answer went to (its redirect), or None."""
    if answer is None:
        return None
    found = re.search(r"/tables/(\d+)/$", answer.url)
    return int(found.group(1)) if found else None


def refusal(page: str) -> str:
    """The message a refused form shows, for the error's detail."""
    found = re.search(
        r'class="[^"]*(?:error|message)[^"]*"[^>]*>\s*([^<]{1,120})', page
    )
    return found.group(1).strip() if found else "no redirect"


class Party:
    """Players who sit together, game after game."""

    def __init__(self, run: Run, kind: Kind, first_index: int):
        self.run = run
        self.kind = kind
        self.players = [
            Player(run, first_index + n, kind, n) for n in range(kind.people)
        ]
        self.signed_in = [
            asyncio.get_running_loop().create_future() for _ in self.players
        ]

    def arrive(self, n: int) -> None:
        """Player ``n`` signs in now."""

        async def sign_in():
            try:
                ok = await self.players[n].sign_in()
            except Exception as error:  # noqa: BLE001 (counted)
                self.run.record.error("exception", f"sign-in {type(error).__name__}")
                ok = False
            self.signed_in[n].set_result(ok)

        self.run.spawn(sign_in())

    async def play(self) -> None:
        results = await asyncio.gather(*self.signed_in)
        if not all(results):
            return
        loaded = True
        while not self.run.stopping:
            await asyncio.gather(*(p.lobby(loaded) for p in self.players))
            loaded = False
            table_id = await self.sit()
            if table_id is None:
                # Refused (counted): back to the lobby a little later, as a
                # person would.
                await asyncio.sleep(5)
                continue
            games = await asyncio.gather(*(p.game_of(table_id) for p in self.players))
            if None in games:
                await self.players[0].leave_table(table_id)
                await asyncio.sleep(5)
                continue
            await asyncio.gather(*(p.play(games[0]) for p in self.players))

    async def sit(self) -> int | None:
        """The host makes a table and seats the bots, the others sit."""
        host, *guests = self.players
        table_id = await host.create_table()
        if table_id is None:
            return None
        for guest in guests:
            if not await guest.take_seat(table_id):
                for player in (host, *guests):
                    await player.leave_table(table_id)
                return None
        return table_id

    async def leave(self) -> None:
        for player in self.players:
            await player.leave_page()


# The run.


@dataclass
class Stage:
    players: int
    ramp_started: float
    held: float = 0.0
    ended: float = 0.0
    usage: dict = field(default_factory=dict)  # group -> (cpu share, max rss)
    connections: list = field(default_factory=list)


class Run:
    def __init__(self, base: str):
        self.base = base
        self.record = Record()
        self.stopping = False
        self.tasks: set[asyncio.Task] = set()
        self.parties: list[Party] = []
        self.count = 0

    def spawn(self, coroutine) -> None:
        async def guarded():
            try:
                await coroutine
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 (counted)
                if not self.stopping:
                    self.record.error("exception", f"{type(error).__name__}: {error}")

        task = asyncio.create_task(guarded())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def ramp_to(self, players: int, per_minute: float) -> None:
        """Players arrive one after another, ``per_minute`` a minute, in
        parties of the mix, until there are ``players``."""
        gap = 60 / per_minute
        while self.count < players:
            kind = KINDS[MIX[len(self.parties) % len(MIX)]]
            party = Party(self, kind, self.count)
            self.parties.append(party)
            self.count += kind.people
            self.spawn(party.play())
            for n in range(kind.people):
                party.arrive(n)
                await asyncio.sleep(gap)

    async def stop(self) -> None:
        self.stopping = True
        for party in self.parties:
            await party.leave()
        if self.tasks:
            _, late = await asyncio.wait(self.tasks, timeout=30)
            for task in late:
                task.cancel()


class Usage:
    """CPU and memory of the platform's processes, sampled. A group's CPU is
    that of its live processes and of the children they reaped (so that
    PostgreSQL's backends, which come and go, are all counted); its memory
    the largest private RSS (resident less shared) seen."""

    def __init__(self, groups):
        self.groups = groups  # name -> function returning the root pids
        self.cpu = {name: 0.0 for name in groups}
        self.rss = {name: 0 for name in groups}

    def sample(self) -> None:
        import psutil

        for name, roots in self.groups.items():
            total_cpu, total_rss = 0.0, 0
            for proc in processes(roots()):
                try:
                    times = proc.cpu_times()
                    memory = proc.memory_info()
                except psutil.Error:
                    continue
                total_cpu += sum(times[:4])  # user, system, reaped children's
                total_rss += memory.rss - memory.shared
            self.cpu[name] = max(self.cpu[name], total_cpu)
            self.rss[name] = max(self.rss[name], total_rss)

    def mark(self) -> tuple[dict, dict]:
        """The CPU so far, and the RSS peaks since the last mark."""
        peaks = dict(self.rss)
        self.rss = {name: 0 for name in self.groups}
        return dict(self.cpu), peaks


def own_rss() -> int:
    import psutil

    memory = psutil.Process().memory_info()
    return memory.rss - memory.shared


def processes(pids):
    import psutil

    found = []
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            found += [proc, *proc.children(recursive=True)]
        except psutil.Error:
            continue
    return found


def pids_with(text: str) -> list[int]:
    """Processes whose command line names ``text`` (the private servers'
    directory), without their children's duplicates."""
    import psutil

    found = []
    for proc in psutil.process_iter(["cmdline", "ppid"]):
        if text in " ".join(proc.info["cmdline"] or []):
            found.append(proc.pid)
    return [pid for pid in found if psutil.Process(pid).ppid() not in found]


def database_connections(conn) -> int:
    """The database's connections, this sampler's own left out."""
    return (
        conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [DATABASE]
        ).fetchone()[0]
        - 1
    )


async def health(base: str, record: Record, run: Run) -> None:
    import requests

    def ask():
        try:
            return requests.get(f"{base}/health/", timeout=10).status_code
        except requests.RequestException as error:
            return type(error).__name__

    while not run.stopping:
        status = await asyncio.get_running_loop().run_in_executor(HTTP_POOL, ask)
        if status != 200:
            record.error("health", f"/health/ {status}")
        await asyncio.sleep(HEALTH_EVERY)


async def sampler(usage: Usage, url: str, stage_of, done: asyncio.Event) -> None:
    import psycopg

    # Opened before the players come, so that it is never refused.
    conn = await asyncio.to_thread(psycopg.connect, url, autocommit=True)
    try:
        while not done.is_set():
            await asyncio.to_thread(usage.sample)
            stage = stage_of()
            if stage is not None:
                stage.connections.append(
                    await asyncio.to_thread(database_connections, conn)
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), SAMPLE_EVERY)
    finally:
        conn.close()


async def run_players(
    args, base: str, usage: Usage, db_url: str, memory: memory_watch.Watch | None
) -> tuple:
    run = Run(base)
    stages: list[Stage] = []
    current = {"stage": None}
    done = asyncio.Event()
    held = asyncio.Event()  # the memory is watched over the holds alone
    monitors = [
        asyncio.create_task(health(base, run.record, run)),
        asyncio.create_task(sampler(usage, db_url, lambda: current["stage"], done)),
    ]
    watching = None
    for players in args.stages:
        stage = Stage(players, time.monotonic())
        stages.append(stage)
        await run.ramp_to(players, args.ramp_per_minute)
        # Every sign-in of the ramp answered, or a minute more.
        limit = time.monotonic() + 60
        while time.monotonic() < limit and not all(
            future.done() for party in run.parties for future in party.signed_in
        ):
            await asyncio.sleep(0.5)
        stage.players = run.count
        stage.held = time.monotonic()
        await asyncio.to_thread(usage.sample)
        cpu_before, _ = usage.mark()
        client_before = time.process_time()
        current["stage"] = stage
        if memory is not None and watching is None:
            watching = asyncio.create_task(
                memory_watch.watch(memory, args.memory_every, held)
            )
        await asyncio.sleep(args.stage_seconds)
        current["stage"] = None
        await asyncio.to_thread(usage.sample)
        cpu_after, peaks = usage.mark()
        stage.ended = time.monotonic()
        seconds = stage.ended - stage.held
        stage.usage = {
            name: ((cpu_after[name] - cpu_before[name]) / seconds, peaks[name])
            for name in cpu_after
        }
        stage.usage["client"] = (
            (time.process_time() - client_before) / seconds,
            own_rss(),
        )
        print(stage_line(stage, run.record), flush=True)
    if watching is not None:
        held.set()
        await watching
    await run.stop()
    done.set()
    for task in monitors:
        task.cancel()
    return run, stages


# The echo: the same sockets, pings and table frames, against the durable echo.


@dataclass
class EchoStage:
    players: int
    rate: float  # table frames a second a player
    trips: list = field(default_factory=list)
    errors: dict = field(default_factory=dict)
    server_cpu: float = 0.0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def echo_stage(base: str, stage: EchoStage, seconds: float, web_pid: int):
    from live_tables import cpu_seconds
    from websockets.exceptions import ConnectionClosed

    async def client(n: int, raw, durable, start: asyncio.Event, end: float):
        rng = random.Random(n)
        await start.wait()
        pings = {raw: time.monotonic() + rng.uniform(0, PING_SECONDS),
                 durable: time.monotonic() + rng.uniform(0, PING_SECONDS)}  # fmt: skip
        frame_at = time.monotonic() + (
            rng.expovariate(stage.rate) if stage.rate else 1e9
        )
        padding = "x" * 40
        count = 0
        try:
            while time.monotonic() < end:
                due = min([*pings.values(), frame_at])
                await asyncio.sleep(max(0.0, min(due, end) - time.monotonic()))
                if time.monotonic() >= end:
                    return
                for ws, at in pings.items():
                    if at <= time.monotonic():
                        pings[ws] = at + PING_SECONDS
                        await round_trip(ws, '{"type":"ping"}', None)
                if frame_at <= time.monotonic():
                    frame_at += rng.expovariate(stage.rate)
                    count += 1
                    text = json.dumps(
                        {"type": "action", "id": f"e{n}a{count}", "pad": padding}
                    )
                    await round_trip(durable, text, stage.trips)
        except ConnectionClosed as closed:
            stage.error(f"close {closed.rcvd.code if closed.rcvd else 'none'}")

    async def round_trip(ws, text: str, trips):
        began = time.monotonic()
        await ws.send(text)
        try:
            answer = await asyncio.wait_for(ws.recv(), timeout=60)
        except TimeoutError:
            stage.error("late echo")
            return
        seconds = time.monotonic() - began
        if seconds > ACK_LIMIT:
            stage.error("late echo")
        if answer != text:
            stage.error("mismatch")
        if trips is not None:
            trips.append(seconds)

    sockets = []
    try:
        for _ in range(stage.players):
            raw = await open_socket(
                base.replace("http", "ws", 1) + "/echo/", base, None
            )
            durable = await open_socket(
                base.replace("http", "ws", 1) + "/echo-durable/", base, None
            )
            sockets.append((raw, durable))
    except Exception as error:  # noqa: BLE001 (counted)
        stage.error(f"open {type(error).__name__}")
    start = asyncio.Event()
    end = time.monotonic() + seconds + 1
    tasks = [
        asyncio.create_task(client(n, raw, durable, start, end))
        for n, (raw, durable) in enumerate(sockets)
    ]
    await asyncio.sleep(1)
    cpu = cpu_seconds(web_pid)
    start.set()
    _, late = await asyncio.wait(tasks, timeout=seconds + 90) if tasks else (None, [])
    stage.server_cpu = (cpu_seconds(web_pid) - cpu) / seconds
    for task in late:
        task.cancel()
        stage.error("unfinished")
    for task in tasks:
        if task not in late and task.exception() is not None:
            stage.error(f"exception {type(task.exception()).__name__}")
    for pair in sockets:
        for ws in pair:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), timeout=10)


# Integrity at the end.


def annul_unfinished(game_ids) -> int:
    from django.contrib.auth import get_user_model

    from games.models import Game
    from games.services.annul import game_annul

    operator, _ = get_user_model().objects.get_or_create(
        username="bench-operator", defaults={"is_staff": True}
    )
    playing = Game.objects.filter(pk__in=game_ids, status=Game.Status.PLAYING)
    count = 0
    for game_id in playing.values_list("pk", flat=True):
        game_annul(game_id=game_id, by=operator)
        count += 1
    return count


def integrity(record: Record) -> dict:
    from coins.services.audit import ledger_mismatches, ledger_total
    from games.models import Game, GameEvent
    from games.selectors import game_record
    from joker.record import RecordError, replay

    finished = Game.objects.filter(status=Game.Status.FINISHED).select_related("table")
    replayed, broken = 0, []
    for game in finished:
        try:
            replay(game_record(game))
            replayed += 1
        except RecordError as error:
            broken.append(f"game {game.pk}: {error}")
    stored = {}
    ids = [client_id for _, client_id, _ in record.acked]
    for game_id, client_id, version in GameEvent.objects.filter(
        client_id__in=ids
    ).values_list("game_id", "client_id", "version"):
        stored.setdefault((game_id, client_id), []).append(version)
    once, astray = 0, []
    for game_id, client_id, version in record.acked:
        # The ack names the version after the action: its own, or the next
        # deal's when the action ended a deal (dealt in the same step).
        found = stored.get((game_id, client_id), [])
        if len(found) == 1 and version - found[0] in (0, 1):
            once += 1
        else:
            astray.append(f"game {game_id} {client_id} acked {version}, stored {found}")
    return {
        "ledger_total": ledger_total(),
        "ledger_mismatches": len(ledger_mismatches()),
        "finished": len(finished),
        "replayed": replayed,
        "broken": broken,
        "acked": len(record.acked),
        "stored_once": once,
        "astray": astray,
    }


# Reporting.


def errors_in(record: Record, start: float, end: float) -> dict:
    counts = {}
    for at, kind, _ in record.errors:
        if start <= at < end:
            counts[kind] = counts.get(kind, 0) + 1
    return counts


def stage_line(stage: Stage, record: Record) -> str:
    trips = [s for at, s in record.trips if stage.held <= at < stage.ended]
    errors = errors_in(record, stage.ramp_started, stage.ended)
    seconds = stage.ended - stage.held
    return (
        f"stage {stage.players} players: moves {len(trips)} "
        f"({len(trips) / seconds:.1f}/s)"
        f", move p50 {percentile(trips, 0.5) * 1000:.0f} ms p99 "
        f"{percentile(trips, 0.99) * 1000:.0f} ms, errors {sum(errors.values())}"
    )


GROUPS = ("web", "worker", "beat", "postgres", "redis", "client")


def report(args, run: Run, stages, echoes, checks, seconds_setup) -> bool:
    record = run.record
    print()
    print(
        f"{'players':>8}{'ramp s':>7}{'sign-ins':>9}{'p50 s':>7}{'moves/s':>8}"
        f"{'p50 ms':>8}{'p99 ms':>8}{'frames/s':>9}{'errors':>7}  "
        + "".join(f"{g:>9}" for g in GROUPS)
        + f"{'db conn':>9}"
    )
    for stage in stages:
        seconds = stage.ended - stage.held
        trips = [s for at, s in record.trips if stage.held <= at < stage.ended]
        signs = [
            s for at, s in record.sign_ins if stage.ramp_started <= at < stage.held
        ]
        frames = sum(stage.held <= at < stage.ended for at in record.table_frames)
        errors = errors_in(record, stage.ramp_started, stage.ended)
        conns = stage.connections or [0]
        print(
            f"{stage.players:>8}{stage.held - stage.ramp_started:>7.0f}{len(signs):>9}"
            f"{percentile(signs, 0.5):>7.2f}{len(trips) / seconds:>8.1f}"
            f"{percentile(trips, 0.5) * 1000:>8.0f}"
            f"{percentile(trips, 0.99) * 1000:>8.0f}"
            f"{frames / seconds:>9.1f}{sum(errors.values()):>7}  "
            + "".join(f"{stage.usage[g][0]:>9.0%}" for g in GROUPS)
            + f"{sum(conns) / len(conns):>5.0f}/{max(conns)}"
        )
    print("  CPU: share of one core over the hold; RSS (MB, largest seen):")
    for stage in stages:
        print(
            f"  {stage.players:>6} players RSS "
            + ", ".join(f"{g} {stage.usage[g][1] / 2**20:.0f}" for g in GROUPS)
        )
    for stage in stages:
        found = [
            (kind, detail)
            for at, kind, detail in record.errors
            if stage.ramp_started <= at < stage.ended
        ]
        if found:
            by_class = {}
            for kind, detail in found:
                by_class.setdefault(kind, []).append(detail)
            print(f"  errors at {stage.players} players:")
            for kind in ERROR_CLASSES:
                if kind in by_class:
                    details = by_class[kind]
                    print(f"    {kind} {len(details)}: {'; '.join(details[:4])}")
    late = [e for e in record.errors if e[0] >= stages[-1].ended]
    if late:
        print(f"  errors while the players left: {len(late)}")
    print()
    print(f"{'echo players':>12}{'sockets':>8}{'frames/s':>9}{'p50 ms':>8}{'p99 ms':>8}"
          f"{'errors':>7}{'web CPU':>8}")  # fmt: skip
    for echo in echoes:
        errors = sum(echo.errors.values())
        detail = ", ".join(f"{k} {n}" for k, n in sorted(echo.errors.items()))
        print(
            f"{echo.players:>12}{echo.players * 2:>8}"
            f"{len(echo.trips) / args.stage_seconds:>9.1f}"
            f"{percentile(echo.trips, 0.5) * 1000:>8.1f}"
            f"{percentile(echo.trips, 0.99) * 1000:>8.1f}{errors:>7}"
            f"{echo.server_cpu:>8.0%}" + (f"  ({detail})" if detail else "")
        )
    print()
    print(
        f"games {len(record.games)}, finished {len(record.finished)} seen by players; "
        f"setup {seconds_setup:.0f} s"
    )
    print(
        f"integrity: ledger total {checks['ledger_total']}, accounts off their "
        f"entries {checks['ledger_mismatches']}; finished games replayed "
        f"{checks['replayed']}/{checks['finished']}; acked actions stored once "
        f"{checks['stored_once']}/{checks['acked']}"
    )
    for broken in checks["broken"][:5]:
        print(f"  broken record: {broken}")
    for astray in checks["astray"][:5]:
        print(f"  acked action: {astray}")
    held = [s.players for s in stages if not errors_in(record, s.ramp_started, s.ended)]
    echo_held = [e.players for e in echoes if not e.errors]
    tried = max(e.players for e in echoes) if echoes else 0
    echo_text = (f"{max(echo_held)} players' sockets" if echo_held else "no stage") + (
        " (every stage tried)" if echo_held and max(echo_held) == tried else ""
    )
    print(
        f"largest stage held with 0 errors: {max(held) if held else 'none'} "
        f"players (of {', '.join(str(s.players) for s in stages)}); the durable "
        f"echo held {echo_text}, largest tried {tried}"
    )
    return (
        checks["ledger_total"] == 0
        and checks["ledger_mismatches"] == 0
        and not checks["broken"]
        and checks["stored_once"] == checks["acked"]
    )


# Setting up.


def create_accounts(count: int) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    password = make_password(PASSWORD)
    user_model = get_user_model()
    user_model.objects.bulk_create(
        [user_model(username=f"player{n}", password=password) for n in range(count)],
        batch_size=1000,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--stages",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[40, 120, 200, 400, 600],
        help="players at each stage, comma-separated (default 40,120,200,400,600)",
    )
    parser.add_argument("--stage-seconds", type=float, default=120)
    parser.add_argument("--ramp-per-minute", type=float, default=200)
    parser.add_argument(
        "--echo-beyond",
        type=int,
        default=2,
        help="echo stages doubling past the last stage while it holds (default 2)",
    )
    parser.add_argument(
        "--memory-every",
        type=float,
        default=0,
        help="seconds between heap snapshots of the web process (default: none)",
    )
    parser.add_argument("--port", type=int, help="uvicorn's port (default: free)")
    parser.add_argument(
        "--smoke", action="store_true", help="one stage of 16 players, 40 s held"
    )
    args = parser.parse_args()
    if args.smoke:
        args.stages, args.stage_seconds, args.echo_beyond = [16], 40, 0
    if not args.stages or min(args.stages) < 1 or args.stages != sorted(args.stages):
        parser.error("--stages: rising counts of players")
    if args.stage_seconds <= 0 or args.ramp_per_minute <= 0:
        parser.error("--stage-seconds and --ramp-per-minute must be positive")
    if args.memory_every < 0:
        parser.error("--memory-every must not be negative")
    with servers.PrivateServices() as services:
        return run(args, services)


def run(args, services) -> int:
    began = time.monotonic()
    db_url = services.create_database(DATABASE)
    layer_url = services.redis_url(0)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DEBUG": "False",
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": db_url,
        "REDIS_URL": layer_url,
        "CELERY_BROKER_URL": celery_url(layer_url),
        "PYTHONUNBUFFERED": "1",
    }
    os.environ.update(env)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE {ECHO_TABLE} (id bigserial PRIMARY KEY, body text NOT NULL)"
        )
    # Enough accounts for every stage, the last party's rounding included.
    create_accounts(args.stages[-1] + 4)
    connection.close()

    from run_platform import commands

    from config.child_processes import parent_death_signal

    (port,) = servers.ports(args.port, 1)
    base = f"http://127.0.0.1:{port}"
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    memory = None
    if args.memory_every:
        snapshots = Path(tempfile.mkdtemp(prefix="players-memory-", dir=tmp))
        env[memory_watch.SNAPSHOT_DIR_ENV] = str(snapshots)
    names = ("web", "worker", "beat", "echo")
    logs = {name: tmp / f"players_{port}_{name}.log" for name in names}

    def start_web(log: Path):
        return servers.start_uvicorn(
            ["live_tables:make_application", "--factory"],
            port,
            env,
            log,
            app_dir=Path(__file__).resolve().parent,
        )

    procs = {"web": start_web(logs["web"])}
    platform = commands("127.0.0.1", port)
    for name in ("worker", "beat"):
        with logs[name].open("w") as log:
            procs[name] = subprocess.Popen(
                platform[name],
                cwd=BASE_DIR,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=parent_death_signal(),
            )
    usage = Usage(
        {
            "web": lambda: [procs["web"].pid],
            "worker": lambda: [procs["worker"].pid],
            "beat": lambda: [procs["beat"].pid],
            "postgres": lambda: pids_with(str(services.var / "postgres")),
            "redis": lambda: pids_with(str(services.var / "redis")),
        }
    )
    try:
        wait_for_health(procs["web"], f"{base}/health/", logs["web"])
        setup = time.monotonic() - began
        print(
            f"players: stages {','.join(map(str, args.stages))}, "
            f"{args.stage_seconds:g} s held each, ramp {args.ramp_per_minute:g} "
            f"sign-ins a minute; one uvicorn process, a Celery worker and beat "
            f"(database pool {os.environ.get('PULKA_DB_POOL_SIZE', 'as configured')}); "
            f"{os.cpu_count()} CPUs, load average "
            f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start",
            flush=True,
        )
        if args.memory_every:
            memory = memory_watch.Watch(procs["web"].pid, snapshots)
        played, stages = asyncio.run(run_players(args, base, usage, db_url, memory))
        # The platform stops, so that the checks find the database as the
        # players left it and the echo has a web process to itself.
        for proc in procs.values():
            stop_server(proc)
        annulled = annul_unfinished(played.record.games)
        checks = integrity(played.record)
        connection.close()
        print(f"players gone; {annulled} unfinished games annulled", flush=True)
        echoes = []
        counts = [] if memory else [stage.players for stage in stages]
        if counts:
            procs["echo"] = start_web(logs["echo"])
            wait_for_health(procs["echo"], f"{base}/health/", logs["echo"])
        for _ in range(args.echo_beyond if counts else 0):
            counts.append(counts[-1] * 2)
        for n, players in enumerate(counts):
            stage = stages[min(n, len(stages) - 1)]
            frames = sum(
                stage.held <= at < stage.ended for at in played.record.table_frames
            )
            rate = frames / (stage.ended - stage.held) / stage.players
            echo = EchoStage(players, rate)
            asyncio.run(echo_stage(base, echo, args.stage_seconds, procs["echo"].pid))
            echoes.append(echo)
            print(
                f"echo {players} players: p99 "
                f"{percentile(echo.trips, 0.99) * 1000:.1f} ms, errors "
                f"{sum(echo.errors.values())}",
                flush=True,
            )
            if n >= len(stages) and echo.errors:
                break
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    finally:
        for proc in procs.values():
            stop_server(proc)
        for name, log in logs.items():
            if not log.exists():
                continue
            lines = log.read_text().splitlines()
            failed = [n for n, line in enumerate(lines) if "Traceback" in line]
            if failed:
                first = failed[0]
                print(
                    f"{name} log ({log}): {len(failed)} tracebacks, the first:\n"
                    + "\n".join(lines[first : first + 25])
                )
    sound = report(args, played, stages, echoes, checks, setup)
    if memory is not None:
        memory_watch.report(memory)
    print("integrity holds" if sound else "INTEGRITY FAILED")
    return 0 if sound else 1


if __name__ == "__main__":
    sys.exit(main())
