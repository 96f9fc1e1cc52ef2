"""Load on the live tables: many players at many tables at once, measured
against a durable WebSocket echo served by the same servers, raw and
through the project's Channels stack, the phases interleaved.

    python benchmarks/live_tables.py [--tables N] [--moves M] [--pairs K]
                                     [--protocol 1|2] [--servers S]
                                     [--route home|any]
                                     [--profile japanese|georgian-club]
                                     [--think T] [--time-limit L] [--redis-db D]
                                     [--port P] [--replica none|async|sync]

What it does, all on 127.0.0.1:

1. Starts an embedded PostgreSQL and Redis of its own in a fresh directory
   under /tmp (``servers.PrivateServices``: Unix sockets, no TCP port; no
   other server is touched), creates the database ``pulka_bench`` there and
   migrates it; the channel layer and the Celery broker use Redis database
   D (default 15). Both servers are stopped and their directory removed at
   the end. With ``--replica async`` or ``--replica sync`` PostgreSQL is
   instead a primary and a streaming replica of its own on loopback TCP
   ports (``replication.ReplicatedPostgres``, as tests/ha's failover
   drill), reached by a multi-host DATABASE_URL; ``sync`` makes the replica
   the primary's synchronous standby, so that a commit (a move's, an echo
   frame's) returns once the replica has it too. A/B/A with ``async``,
   ``sync``, ``async`` gives synchronous replication's cost per move.
2. Starts S uvicorn processes (default 2), on ports P, P+1, ... (free ports
   without ``--port``), each told every process's name
   (``PULKA_LIVE_NODES``), as docker/ deploys them, serving the application
   made by this file's ``make_application``: the project's ASGI
   application, a raw ASGI echo at /echo/, a durable echo at
   /echo-durable/ (which writes through the journal) and the same durable
   echo through the project's Channels stack at /echo-channels/ (the
   sockets' middleware of config/asgi.py, a ``URLRouter`` and a consumer
   built as the game's socket is: ``channels_echo``).
3. Creates N tables (Japanese Joker by default) with a person in every
   seat, users and sessions made directly through the ORM, and opens one
   WebSocket per seat, one after another. With ``--route home`` (the
   default) each socket goes to its game's home process, as the
   deployment's proxy sends it (``games.live.routing``: the client does the
   proxy's hashing, so no proxy process shares the two cores); with
   ``--route any`` sockets go to the processes in turn, as a proxy without
   routing would spread them. Each socket speaks the game protocol's
   version ``--protocol`` (2 by default, the table page's: the answer to a
   move rides on the mover's update; 1: an ``ack`` frame of its own after
   it; docs/protocol.md, Protocol versions), and a move's round trip is
   timed from the action to its answer. Each client plays the first legal
   choice it was last sent when it is its turn, one action in flight at a
   time, until its table has had M moves or the time limit passes. With
   ``--think T`` a client first thinks for a random time between T/2 and
   3T/2 seconds (the site's own bots take 1 s); without it (the default) it
   answers at once, so the servers run flat out and the figures are their
   capacity. Flat out, a socket sends far more than a person can (tens of
   moves a second), so the per-socket message limit (``PULKA_SOCKET_RATE``,
   10 a second) is lifted for those runs; paced, the servers keep it.
4. For each echo, opens as many connections, grouped like the seats of the
   tables and spread over the processes alike; in each group one connection
   at a time sends a frame the size of an action and waits for it to come
   back, M times per group, thinking between round trips as the players do:
   the same concurrency and pace, one message in flight per table. The echo
   is *durable*: each frame is written to PostgreSQL before it is sent
   back, queued on the process's journal exactly as a move's step is (the
   same group commit, pool and ``synchronous_commit``): the one wait a move
   may not skip. The raw durable echo is an ASGI application of its own;
   the Channels echo goes through everything a game socket goes through
   before the game: what a move costs beyond it is the game's, what the
   Channels echo costs beyond the raw one is the framework's.
5. Interleaves the phases: durable echo, Channels echo, moves, durable
   echo, Channels echo, moves, ..., durable echo, Channels echo
   (``--pairs`` moves phases, each on tables and sockets of its own), so
   that a drift of the machine's speed falls on all; each moves phase is
   compared with the mean of each echo's phases either side.
6. Prints each phase (rate, round trip p50/p99, errors, the servers' CPU a
   move or a frame), each pair's ratios against both echoes, the messages
   the processes sent each other through the channel layer (their /health/
   counters), the CPU a move of the servers and of the client, and a
   verdict line per target: flat out, moves a second at least 0.3x the
   durable echo's frames a second and at least 0.9x the Channels echo's
   (the medians of the pairs), the servers' CPU at most 0.23 ms a move and
   a move's p99 at most 300 ms; paced (``--think``), a move's p99 at most
   3x the durable echo's and no hop; both, no error. An error is an
   ``error`` message, a socket closed before its table is done, any
   exception a client task ends with, and a table or echo group that did
   not finish its round trips in the time limit; and, for the protocol, a
   first sync that names another version than the one asked for, or
   (protocol 2) an ``ack`` frame answering a move while the game plays on.

Every client also pings every 5 s, as the protocol asks. The servers are stopped
at the end, whatever happens. No Celery worker runs: the players move long
before their timers (turn_seconds=600) would fire; each turn's timer is its
game owner's alarm on the event loop, as in production.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import memory_watch  # noqa: E402
import servers  # noqa: E402
from servers import BASE_DIR, stop_server, wait_for_health  # noqa: E402

from common.redis_roles import celery_url  # noqa: E402

BENCH_DATABASE = "pulka_bench"
# The longest turn a table may have (PULKA_ANY_TURN_SECONDS allows it): no
# turn runs out while the tables of a later phase wait through the phases
# before theirs.
TURN_SECONDS = 600
# Messages a second per socket when the clients answer at once.
UNLIMITED_RATE = 1_000_000
# Clients connect one after another, as players arrive. A burst of connects
# lands almost entirely on one uvicorn worker: the first worker to wake up
# accepts every connection waiting in the listen queue.
CONNECT_AT_ONCE = 1
PING_SECONDS = 5


# The server side: this module is also what uvicorn serves.


async def echo(scope, receive, send, keep=None) -> None:
    """A raw ASGI WebSocket echo: accept, send every frame back; with
    ``keep``, await ``keep(text)`` for each text frame before answering."""
    while True:
        message = await receive()
        kind = message["type"]
        if kind == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif kind == "websocket.receive":
            if message.get("text") is not None:
                if keep is not None:
                    await keep(message["text"])
                await send({"type": "websocket.send", "text": message["text"]})
            else:
                await send({"type": "websocket.send", "bytes": message["bytes"]})
        else:  # websocket.disconnect
            return


# The durable echo's table.
ECHO_TABLE = "bench_durable_echo"
ECHO_INSERT = f"INSERT INTO {ECHO_TABLE} (body) VALUES (%s)"


async def durable_echo(scope, receive, send) -> None:
    """The echo with one durable write per frame, as a move has, written the
    way a move's step is: queued on this process's journal
    (``games.live.journal.Journal``), so that it shares the moves' group
    commit, their pool of connections and their ``synchronous_commit``
    (``Journal.queue`` takes any statement)."""
    from games.live.hall import hall

    journal = (await hall()).journal

    async def insert(text: str) -> None:
        await journal.queue(ECHO_INSERT, [text])

    await echo(scope, receive, send, keep=insert)


def channels_echo():
    """The durable echo through the project's Channels stack: the sockets'
    middleware of config/asgi.py (``socket_stack``: the client's address,
    the origin's check, the flood gate, the session), a ``URLRouter`` and a
    Channels consumer built as the game's socket is
    (``games.consumers.table.GameConsumer``: its dispatch, a channel of the
    layer of its own), which writes each text frame through the process's
    journal as ``durable_echo`` does before sending it back. What a move
    costs beyond it is the game's."""
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import URLRouter

    from common.socket_routes import socket_path
    from config.asgi import socket_stack
    from games.consumers.sockets import DirectDispatchMixin
    from games.live.hall import hall

    class DurableEchoConsumer(DirectDispatchMixin, AsyncWebsocketConsumer):
        async def connect(self) -> None:
            self.journal = (await hall()).journal
            await self.accept()

        async def receive(self, text_data=None, bytes_data=None) -> None:
            if text_data is not None:
                await self.journal.queue(ECHO_INSERT, [text_data])
                await self.send(text_data=text_data)
            else:
                await self.send(bytes_data=bytes_data)

    return socket_stack(
        URLRouter([socket_path("echo-channels/", DurableEchoConsumer.as_asgi())])
    )


def make_application():
    """uvicorn factory: /echo/ is the raw echo, /echo-durable/ the echo with
    a database write through the journal, /echo-channels/ the same through
    the project's Channels stack, the rest is the project."""
    from config.asgi import application as project

    memory_watch.allow_snapshots()  # players.py --memory-every
    through_channels = channels_echo()

    async def application(scope, receive, send):
        if scope["type"] == "websocket" and scope["path"] == "/echo/":
            await echo(scope, receive, send)
        elif scope["type"] == "websocket" and scope["path"] == "/echo-durable/":
            await durable_echo(scope, receive, send)
        elif scope["type"] == "websocket" and scope["path"] == "/echo-channels/":
            await through_channels(scope, receive, send)
        else:
            await project(scope, receive, send)

    return application


# Setting up: the private PostgreSQL and Redis, and the uvicorn processes
# are benchmarks/servers.py's.


def start_server(port: int, env: dict, log_path: Path):
    """One uvicorn process serving ``make_application`` (the site, and the
    two echoes)."""
    return servers.start_uvicorn(
        ["live_tables:make_application", "--factory"],
        port,
        env,
        log_path,
        app_dir=Path(__file__).resolve().parent,
    )


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def hops(bases: list[str]) -> int:
    """Messages the processes sent each other through the channel layer so
    far (each one's /health/)."""
    total = 0
    for base in bases:
        with urllib.request.urlopen(f"{base}/health/", timeout=10) as response:
            total += json.loads(response.read())["live"]["sent"]
    return total


def create_tables(count: int, profile: str) -> list[list[tuple[int, str]]]:
    """``count`` started games with a person in each seat; for each game, the
    (game id, session key) of every seat in order."""
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from games import services
    from games.models import Game
    from games.services.tables import TURN_SECONDS_CHOICES

    # Scripts that do not allow any turn (flood.py) get the longest choice.
    turn = (
        TURN_SECONDS if settings.PULKA_ANY_TURN_SECONDS else max(TURN_SECONDS_CHOICES)
    )
    players = 2 if profile == "japanese" else 4
    user_model = get_user_model()
    users = [
        user_model(username=f"bench{n}", password="!") for n in range(count * players)
    ]
    users = user_model.objects.bulk_create(users)
    keys = []
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "accounts.backends.PasswordBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        keys.append(session.session_key)
    tables = []
    for t in range(count):
        seated = users[t * players : (t + 1) * players]
        table = services.table_create(
            user=seated[0], profile=profile, turn_seconds=turn
        )
        for number, user in enumerate(seated[1:], start=1):
            services.seat_take(table_id=table.pk, user=user, number=number)
        game_id = Game.objects.values_list("pk", flat=True).get(table=table)
        tables.append([(game_id, keys[t * players + n]) for n in range(players)])
    return tables


# The clients.


@dataclass
class Stats:
    round_trips: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    frame_bytes: list[int] = field(default_factory=list)
    groups_done: int = 0
    connect_seconds: float = 0.0
    spread: list[int] = field(default_factory=list)
    started: float = 0.0
    finished: float = 0.0
    games_over: int = 0  # tables whose game ended before their moves

    @property
    def rate(self) -> float:
        seconds = self.finished - self.started
        return len(self.round_trips) / seconds if seconds > 0 else 0.0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


async def open_socket(url: str, origin: str, cookie: str | None):
    from websockets.asyncio.client import connect

    headers = {"Cookie": f"sessionid={cookie}"} if cookie else None
    return await connect(
        url,
        origin=origin,
        additional_headers=headers,
        proxy=None,
        compression=None,
        open_timeout=60,
        ping_interval=None,
        max_queue=None,
    )


class Table:
    def __init__(self, moves: int):
        self.moves_wanted = moves
        self.moves = 0
        self.sockets: list = []
        self.done = False
        self.over = False  # the game ended before its moves were made

    @property
    def completed(self) -> bool:
        return self.moves >= self.moves_wanted or self.over

    async def finish(self) -> None:
        if not self.done:
            self.done = True
            for ws in self.sockets:
                await ws.close()


def think_time(think: float, rng: random.Random) -> float:
    return rng.uniform(think / 2, think * 3 / 2) if think else 0.0


async def play_seat(
    ws,
    table: Table,
    stats: Stats,
    start: asyncio.Event,
    think: float,
    seed: int,
    protocol: int = 1,
) -> None:
    """One seat: keep the latest snapshot, act when it is our turn. The
    socket speaks ``protocol`` (docs/protocol.md, Protocol versions): the
    answer to an action is its ``ack`` frame (1), or the ``ack`` field of
    the update it caused (2); the round trip is timed to the answer."""
    from websockets.exceptions import ConnectionClosed

    rng = random.Random(seed)
    # What a player needs to move: the version, the status and its legal
    # choices, from a sync's view or an update's position.
    snapshot = None
    pending: tuple[str, float] | None = None
    acted_on = None
    try:
        # The sync comes first (a presence message may precede it).
        while snapshot is None:
            message = json.loads(await ws.recv())
            if message["type"] == "sync":
                snapshot = {**message, "position": message["view"]}
                if message.get("protocol", 1) != protocol:
                    stats.error(f"protocol {message.get('protocol', 1)} spoken")
        await start.wait()
        while not table.done:
            view = snapshot["position"]
            if (
                pending is None
                and snapshot["status"] == "playing"
                and view.get("legal")
                and acted_on != snapshot["version"]
            ):
                version = snapshot["version"]
                acted_on = version
                if think:
                    # Think; an update that arrives meanwhile is read next.
                    await asyncio.sleep(think_time(think, rng))
                client_id = f"v{version}"
                frame = json.dumps(
                    {
                        "type": "action",
                        "id": client_id,
                        "version": version,
                        "action": view["legal"][0],
                    }
                )
                stats.frame_bytes.append(len(frame))
                pending = (client_id, time.perf_counter())
                await ws.send(frame)
            message = json.loads(await ws.recv())
            kind = message["type"]
            # The answer to the pending action, wherever it rides.
            answer = message.get("ack") if kind == "update" else None
            if kind == "ack":
                answer = message["id"]
            answered = pending is not None and answer == pending[0]
            if kind == "sync":
                snapshot = {**message, "position": message["view"]}
            elif kind == "update" and message["version"] > snapshot["version"]:
                if message["events"][0]["version"] != snapshot["version"] + 1:
                    stats.error("version gap")  # the protocol's answer: a sync
                    await ws.send(json.dumps({"type": "sync"}))
                snapshot = message
            if snapshot["status"] != "playing":
                table.over = True
                await table.finish()
            elif answered:
                if kind == "ack" and protocol >= 2:
                    # Protocol 2 answers a move that made an update on it.
                    stats.error("ack frame under protocol 2")
                stats.round_trips.append(time.perf_counter() - pending[1])
                pending = None
                table.moves += 1
                if table.moves >= table.moves_wanted:
                    await table.finish()
            elif kind == "error":
                stats.error(message["code"])
                pending = None
    except ConnectionClosed as closed:
        if not table.done:
            code = closed.rcvd.code if closed.rcvd else "none"
            stats.error(f"closed {code}")
    finally:
        ws.pinger.cancel()


async def keep_alive(ws) -> None:
    """Ping every 5 s, as the protocol asks of a client (docs/protocol.md)."""
    from websockets.exceptions import ConnectionClosed

    while True:
        await asyncio.sleep(PING_SECONDS)
        try:
            await ws.send('{"type":"ping"}')
        except ConnectionClosed:
            return


async def connect_all(targets, ping: bool = False) -> list:
    """Open a socket for each (base URL, path, session cookie or None); with
    ``ping``, each pings from the moment it is open."""
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def one(base, path, cookie):
        async with gate:
            url = base.replace("http", "ws", 1) + path
            ws = await open_socket(url, base, cookie)
        if ping:
            # Heard from at once: a table's server takes a silent socket for
            # gone, however long the others take to connect.
            ws.pinger = asyncio.get_running_loop().create_task(keep_alive(ws))
        return ws

    return await asyncio.gather(*(one(*target) for target in targets))


def spread_of(targets, bases: list[str]) -> list[int]:
    """How many sockets went to each server."""
    return [sum(target[0] == base for target in targets) for base in bases]


async def run_moves(
    bases: list[str],
    route,
    games,
    moves: int,
    think: float,
    time_limit: float,
    on_start=None,
    protocol: int = 1,
) -> Stats:
    """``route(game_id, n)`` is the server of a game's n-th socket;
    ``on_start()`` is called as the first moves are made; the sockets speak
    ``protocol``."""
    stats = Stats()
    query = f"?protocol={protocol}" if protocol > 1 else ""
    targets = [
        (route(game_id, n), f"/ws/games/{game_id}/{query}", cookie)
        for seats in games
        for n, (game_id, cookie) in enumerate(seats)
    ]
    began = time.perf_counter()
    sockets = await connect_all(targets, ping=True)
    stats.connect_seconds = time.perf_counter() - began
    stats.spread = spread_of(targets, bases)
    start = asyncio.Event()
    tasks = []
    tables = []
    index = 0
    for seats in games:
        table = Table(moves)
        table.sockets = sockets[index : index + len(seats)]
        index += len(seats)
        tables.append(table)
        tasks += [
            asyncio.create_task(
                play_seat(ws, table, stats, start, think, len(tasks) + n, protocol)
            )
            for n, ws in enumerate(table.sockets)
        ]
    await asyncio.sleep(1)  # every sync in
    if on_start is not None:
        on_start()
    stats.started = time.perf_counter()
    start.set()
    _, late = await asyncio.wait(tasks, timeout=time_limit)
    stats.finished = time.perf_counter()
    stats.groups_done = sum(table.completed for table in tables)
    for table in tables:
        await table.finish()
    for task in late:
        task.cancel()
    judge(stats, tasks, late, await asyncio.gather(*tasks, return_exceptions=True))
    for table in tables:
        if not table.completed:
            stats.error("unfinished table")
        elif table.moves < moves:
            stats.games_over += 1
    return stats


def judge(stats: Stats, tasks: list, late: set, outcomes: list) -> None:
    """Every exception a client task ended with is an error (those cut off
    by the time limit are judged by their unfinished table or group)."""
    for task, outcome in zip(tasks, outcomes, strict=True):
        if task in late or not isinstance(outcome, BaseException):
            continue
        stats.error(f"exception {type(outcome).__name__}: {outcome}"[:120])


async def run_echo(
    bases: list[str],
    path: str,
    groups: int,
    per_group: int,
    size: int,
    moves: int,
    think: float,
    time_limit: float,
    on_start=None,
) -> Stats:
    """Groups of ``per_group`` echo sockets, a group on each server in turn;
    in each, one socket at a time sends a ``size``-byte frame and waits for
    it, ``moves`` times."""
    stats = Stats()
    targets = [
        (bases[g % len(bases)], path, None)
        for g in range(groups)
        for _ in range(per_group)
    ]
    began = time.perf_counter()
    sockets = await connect_all(targets)
    stats.connect_seconds = time.perf_counter() - began
    stats.spread = spread_of(targets, bases)
    start = asyncio.Event()
    skeleton = json.dumps({"type": "action", "id": "v0", "pad": ""})
    padding = "x" * max(size - len(skeleton), 0)

    async def group(members, seed):
        rng = random.Random(seed)
        await start.wait()
        for n in range(moves):
            if think:
                await asyncio.sleep(think_time(think, rng))
            ws = members[n % len(members)]
            frame = json.dumps({"type": "action", "id": f"v{n}", "pad": padding})
            began = time.perf_counter()
            await ws.send(frame)
            answer = await ws.recv()
            stats.round_trips.append(time.perf_counter() - began)
            if answer != frame:
                stats.error("echo_mismatch")
        stats.groups_done += 1

    tasks = [
        asyncio.create_task(group(sockets[g * per_group : (g + 1) * per_group], g))
        for g in range(groups)
    ]
    await asyncio.sleep(0.2)
    if on_start is not None:
        on_start()
    stats.started = time.perf_counter()
    start.set()
    _, late = await asyncio.wait(tasks, timeout=time_limit)
    stats.finished = time.perf_counter()
    for task in late:
        task.cancel()
    judge(stats, tasks, late, await asyncio.gather(*tasks, return_exceptions=True))
    for _ in range(groups - stats.groups_done):
        stats.error("unfinished echo group")
    for closed in await asyncio.gather(
        *(ws.close() for ws in sockets), return_exceptions=True
    ):
        if isinstance(closed, Exception):
            stats.error(f"close {type(closed).__name__}")
    return stats


# Reporting.


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def row(name: str, stats: Stats, cpu: str) -> tuple[str, str]:
    seconds = stats.finished - stats.started
    count = len(stats.round_trips)
    errors = sum(stats.errors.values())
    spread = "/".join(str(n) for n in stats.spread) or "?"
    line = (
        f"{name:<20}{count:>8}{seconds:>9.1f}{stats.rate:>10.1f}"
        f"{percentile(stats.round_trips, 0.5) * 1000:>10.2f}"
        f"{percentile(stats.round_trips, 0.99) * 1000:>10.2f}{errors:>8}"
        f"{stats.connect_seconds:>10.1f}{cpu:>18}  {spread}"
    )
    detail = ", ".join(f"{code}: {n}" for code, n in sorted(stats.errors.items()))
    return line, detail


def start_profiles(procs, directory: Path, seconds: float) -> list:
    """py-spy (on PATH or beside this Python) sampling each server for
    ``seconds``, without pausing it, its stacks written to ``directory``."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    directory.mkdir(parents=True, exist_ok=True)
    return [
        subprocess.Popen(
            [
                spy, "record", "--pid", str(proc.pid), "--duration", str(int(seconds)),
                "--rate", "50", "--format", "raw", "--nonblocking",
                "--output", str(directory / f"server-{n}.txt"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for n, proc in enumerate(procs, start=1)
    ]  # fmt: skip


def profile_summary(directory: Path, top: int = 15) -> str:
    """The functions the servers spent their samples in: by their own time
    and including what they called, as shares of every sample taken."""
    own: dict[str, int] = {}
    within: dict[str, int] = {}
    total = 0
    for path in sorted(directory.glob("server-*.txt")):
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not count.isdigit():
                continue
            count = int(count)
            total += count
            # "function (file:line)": the same function at any line.
            frames = [frame.rsplit(":", 1)[0] + ")" for frame in stack.split(";")]
            own[frames[-1]] = own.get(frames[-1], 0) + count
            for frame in set(frames):
                within[frame] = within.get(frame, 0) + count
    if not total:
        return "no samples"
    lines = [f"{total} samples; by own time:"]
    for frame, count in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"  {100 * count / total:5.1f}%  {frame}")
    lines.append("the project's functions, including what they called:")
    shown = [
        (frame, count)
        for frame, count in sorted(within.items(), key=lambda kv: -kv[1])
        if "(games/" in frame
    ]
    for frame, count in shown[:top]:
        lines.append(f"  {100 * count / total:5.1f}%  {frame}")
    return "\n".join(lines)


# The targets, checked by the verdict lines.
PACED_P99_OVER_DURABLE = 3.0
FLAT_RATE_OVER_DURABLE = 0.3
FLAT_RATE_OVER_CHANNELS = 0.9
FLAT_P99_MS = 300
FLAT_SERVER_CPU_MS = 0.23  # the servers' CPU a move
# The two echoes, in the order their phases run: the durable echo raw (an
# ASGI application of its own) and through the project's Channels stack.
ECHOES = ("echo", "channels")
ECHO_PATHS = {"echo": "/echo-durable/", "channels": "/echo-channels/"}
ECHO_NAMES = {"echo": "durable echo", "channels": "Channels echo"}
# The size of the echoes' frames: about an action's (the moves print theirs).
ECHO_FRAME_BYTES = 90


ROUTES = {"home": "their game's home", "any": "the processes in turn"}


def verdict(met: bool) -> str:
    return "meets" if met else "MISSES"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=100, help="per table")
    parser.add_argument(
        "--pairs",
        type=int,
        default=2,
        help="moves phases, each between two phases of each echo (default 2)",
    )
    parser.add_argument(
        "--protocol",
        type=int,
        default=2,
        choices=[1, 2],
        help="the game sockets' protocol version: 2 (the table page's, the "
        "default) answers a move in its update, 1 with an ack frame",
    )
    parser.add_argument(
        "--profile", default="japanese", choices=["japanese", "georgian-club"]
    )
    parser.add_argument("--servers", type=int, default=2, help="uvicorn processes")
    parser.add_argument(
        "--route",
        default="home",
        choices=["home", "any"],
        help="each game's sockets to its home process, or to the processes in turn",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a player thinks before each move (0: none)",
    )
    parser.add_argument(
        "--time-limit", type=float, default=120, help="seconds per phase"
    )
    parser.add_argument(
        "--redis-db", type=int, default=15, help="database of the private Redis"
    )
    parser.add_argument(
        "--py-spy",
        type=Path,
        metavar="DIR",
        help="sample each server with py-spy during the first moves; stacks in DIR",
    )
    parser.add_argument(
        "--py-spy-seconds", type=float, default=10, help="how long to sample"
    )
    parser.add_argument(
        "--port",
        type=int,
        help="the first uvicorn process's port, the others' the next ones "
        "(default: free ports)",
    )
    parser.add_argument(
        "--replica",
        default="none",
        choices=["none", "async", "sync"],
        help="PostgreSQL alone on its socket (none), or a primary with a "
        "streaming replica, asynchronous or a synchronous standby",
    )
    args = parser.parse_args()
    if args.pairs < 1:
        parser.error("--pairs is at least 1")
    with contextlib.ExitStack() as stack:
        cluster = None
        if args.replica != "none":
            from replication import ReplicatedPostgres

            cluster = stack.enter_context(
                ReplicatedPostgres(synchronous=args.replica == "sync")
            )
        services = stack.enter_context(
            servers.PrivateServices(postgres=cluster is None)
        )
        run(args, services, cluster)


@dataclass
class Phase:
    kind: str  # moves, or one of ECHOES
    stats: Stats
    server_cpu: float = 0.0
    client_cpu: float = 0.0


def run(args, services, cluster=None) -> None:
    if cluster is None:
        db_url = services.create_database(BENCH_DATABASE)
        postgres = "PostgreSQL on its Unix socket"
    else:
        cluster.create_database(BENCH_DATABASE)
        db_url = cluster.url(BENCH_DATABASE)
        postgres = (
            "PostgreSQL primary with a "
            + ("synchronous standby" if cluster.synchronous else "streaming replica")
            + " (loopback TCP)"
        )
    layer_url = services.redis_url(args.redis_db)
    ports = servers.ports(args.port, args.servers)
    nodes = [f"127.0.0.1:{port}" for port in ports]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DEBUG": "False",
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": db_url,
        "REDIS_URL": layer_url,
        "CELERY_BROKER_URL": celery_url(layer_url),
        "PULKA_LIVE_NODES": ",".join(nodes),
        "PULKA_ANY_TURN_SECONDS": "1",
    }
    if not args.think:
        # Machines answering at once, not people: the limit meant for
        # people (games.socket_limits) would refuse them after its burst.
        env["PULKA_SOCKET_RATE"] = str(UNLIMITED_RATE)
    os.environ.update(env)
    sys.path.insert(0, str(BASE_DIR))

    import django
    from django.core.management import call_command

    django.setup()
    began = time.perf_counter()
    call_command("migrate", verbosity=0)
    migrated = time.perf_counter() - began
    from django.db import connection

    from games.live.routing import home

    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE {ECHO_TABLE} (id bigserial PRIMARY KEY, body text NOT NULL)"
        )

    bases = [f"http://{node}" for node in nodes]
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    logs = [tmp / f"live_tables_{port}.log" for port in ports]
    procs = [
        start_server(port, {**env, "PULKA_LIVE_NODE": node}, log)
        for port, node, log in zip(ports, nodes, logs, strict=True)
    ]
    try:
        for proc, base, log in zip(procs, bases, logs, strict=True):
            wait_for_health(proc, f"{base}/health/", log)
        began = time.perf_counter()
        games = create_tables(args.tables * args.pairs, args.profile)
        created = time.perf_counter() - began
        players = len(games[0])
        if args.think:
            pace = (
                f"thinking {args.think:g} s a move (about "
                f"{args.tables / args.think:.0f} moves/s offered)"
            )
        else:
            pace = "no thinking (flat out; no per-socket message limit)"
        print(
            f"live tables: {args.tables} {args.profile} tables a phase, "
            f"{args.tables * players} WebSocket clients, {args.servers} uvicorn "
            f"processes, sockets routed to {ROUTES[args.route]}, "
            f"{args.moves} moves per table (limit {args.time_limit:g} s per "
            f"phase), {pace}, {os.cpu_count()} CPUs, load average "
            f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start; "
            f"migrate {migrated:.1f} s, {len(games)} tables {created:.1f} s; "
            f"phases durable echo / Channels echo / moves (protocol "
            f"{args.protocol}) interleaved, {args.pairs} moves phases; "
            f"{postgres}"
        )
        try:
            import uvloop

            runner = uvloop.run
        except ImportError:
            runner = asyncio.run

        if args.route == "home":
            by_node = dict(zip(nodes, bases, strict=True))

            def route(game_id, n):
                return by_node[home(game_id, nodes)]
        else:
            turn = iter(range(10**9))

            def route(game_id, n):
                return bases[next(turn) % len(bases)]

        spies = []
        phases: list[Phase] = []

        def measured(kind: str, coroutine_of) -> None:
            """One phase, the CPU of the servers and of this client over it."""
            cpu = {}

            def on_start() -> None:
                cpu["servers"] = sum(cpu_seconds(proc.pid) for proc in procs)
                cpu["client"] = time.process_time()
                if args.py_spy and kind == "moves" and not spies:
                    spies.extend(
                        start_profiles(procs, args.py_spy, args.py_spy_seconds)
                    )

            stats = runner(coroutine_of(on_start))
            servers_cpu = sum(cpu_seconds(proc.pid) for proc in procs)
            phases.append(
                Phase(
                    kind,
                    stats,
                    servers_cpu - cpu["servers"],
                    time.process_time() - cpu["client"],
                )
            )

        def echo_phases() -> None:
            """The durable echo raw, then through the Channels stack."""
            for kind in ECHOES:
                measured(
                    kind,
                    lambda on_start, kind=kind: run_echo(
                        bases, ECHO_PATHS[kind], args.tables, players,
                        ECHO_FRAME_BYTES, args.moves, args.think,
                        args.time_limit, on_start,
                    ),
                )  # fmt: skip

        for n in range(args.pairs):
            echo_phases()
            chunk = games[n * args.tables : (n + 1) * args.tables]
            measured(
                "moves",
                lambda on_start, chunk=chunk: run_moves(
                    bases, route, chunk, args.moves, args.think, args.time_limit,
                    on_start, args.protocol,
                ),
            )  # fmt: skip
        echo_phases()
        for spy in spies:
            spy.wait()
        hops_seen = hops(bases)
        load_after = os.getloadavg()[0]
        for proc, log in zip(procs, logs, strict=True):
            if proc.poll() is not None:
                sys.exit(f"uvicorn exited:\n{log.read_text()[-3000:]}")
    finally:
        for proc in procs:
            stop_server(proc)
    report(args, phases, hops_seen, load_after)


def report(args, phases: list[Phase], hops_seen: int, load_after: float) -> None:
    header = (
        f"{'phase':<20}{'count':>8}{'seconds':>9}{'per s':>10}{'p50 ms':>10}"
        f"{'p99 ms':>10}{'errors':>8}{'connect s':>10}{'server CPU':>18}  sockets"
    )
    print(f"\n{header}")
    details = []
    for n, phase in enumerate(phases, start=1):
        stats = phase.stats
        name = f"{n} " + (
            f"moves, protocol {args.protocol}"
            if phase.kind == "moves"
            else ECHO_NAMES[phase.kind]
        )
        made = max(len(stats.round_trips), 1)
        per = "move" if phase.kind == "moves" else "frame"
        line, detail = row(
            name, stats, f"{phase.server_cpu / made * 1000:.2f} ms/{per}"
        )
        print(line)
        if detail:
            details.append(f"{name}: {detail}")
    for detail in details:
        print(f"  errors, {detail}")
    moves = [p for p in phases if p.kind == "moves"]
    echoes = {kind: [p for p in phases if p.kind == kind] for kind in ECHOES}
    made = sum(len(p.stats.round_trips) for p in moves) or 1
    sizes = [b for p in moves for b in p.stats.frame_bytes]
    print(
        f"load average (1 min) at the end: {load_after:.2f}; echo frames "
        f"{ECHO_FRAME_BYTES} B, actions {statistics.mean(sizes) if sizes else 0:.0f} B"
        f" on average; game sockets speaking protocol {args.protocol}"
    )
    print(
        "groups that completed: "
        + ", ".join(f"{p.kind} {p.stats.groups_done}/{args.tables}" for p in phases)
        + f"; games that ended before their moves: "
        f"{sum(p.stats.games_over for p in moves)}"
    )
    print(f"channel-layer hops between the processes during the moves: {hops_seen}")
    servers_cpu = sum(p.server_cpu for p in moves)
    client_cpu = sum(p.client_cpu for p in moves)
    server_ms = servers_cpu / made * 1000
    cpu_line = (
        f"CPU during the moves: servers {servers_cpu:.1f} s "
        f"({server_ms:.2f} ms a move), client {client_cpu:.1f} s "
        f"({client_cpu / made * 1000:.2f} ms a move)"
    )
    for kind in ECHOES:
        frames = max(1, sum(len(p.stats.round_trips) for p in echoes[kind]))
        echo_servers = sum(p.server_cpu for p in echoes[kind])
        echo_client = sum(p.client_cpu for p in echoes[kind])
        cpu_line += (
            f"; during the {ECHO_NAMES[kind]}: servers "
            f"{echo_servers / frames * 1000:.2f} ms a frame, client "
            f"{echo_client / frames * 1000:.2f} ms a frame"
        )
    print(cpu_line)
    # Each moves phase against the mean of each echo's phases either side.
    rates: dict[str, list[float]] = {kind: [] for kind in ECHOES}
    p99s: dict[str, list[float]] = {kind: [] for kind in ECHOES}
    for n, phase in enumerate(moves):
        move_p99 = percentile(phase.stats.round_trips, 0.99)
        parts = []
        for kind in ECHOES:
            before, after = echoes[kind][n].stats, echoes[kind][n + 1].stats
            echo_rate = (before.rate + after.rate) / 2
            echo_p99 = (percentile(before.round_trips, 0.99) + percentile(
                after.round_trips, 0.99)) / 2  # fmt: skip
            rates[kind].append(phase.stats.rate / echo_rate)
            p99s[kind].append(move_p99 / echo_p99)
            parts.append(
                f"against the {ECHO_NAMES[kind]}'s {echo_rate:.0f}/s: "
                f"{rates[kind][-1]:.2f}x, p99 {echo_p99 * 1000:.1f} ms: "
                f"{p99s[kind][-1]:.2f}x"
            )
        print(
            f"pair {n + 1}: moves {phase.stats.rate:.0f}/s, p99 "
            f"{move_p99 * 1000:.1f} ms; " + "; ".join(parts)
        )
    if args.py_spy:
        print(f"\nprofile of the servers ({args.py_spy}):")
        print(profile_summary(args.py_spy))
    errors = sum(sum(p.stats.errors.values()) for p in phases)
    rate = {kind: statistics.median(rates[kind]) for kind in ECHOES}
    p99_ratio = {kind: statistics.median(p99s[kind]) for kind in ECHOES}
    all_moves = [t for p in moves for t in p.stats.round_trips]
    move_p99 = percentile(all_moves, 0.99)
    if args.think:
        met = p99_ratio["echo"] <= PACED_P99_OVER_DURABLE
        print(
            f"verdict paced: move p99 {p99_ratio['echo']:.2f}x the durable echo's "
            f"({p99_ratio['channels']:.2f}x the Channels echo's), median of "
            f"{len(moves)} pairs ({verdict(met)} the {PACED_P99_OVER_DURABLE:g}x "
            "target)"
        )
        print(
            f"verdict paced: {hops_seen} channel-layer hops "
            f"({verdict(hops_seen == 0)} the 0 target for routed games)"
        )
    else:
        for kind, target in (
            ("echo", FLAT_RATE_OVER_DURABLE),
            ("channels", FLAT_RATE_OVER_CHANNELS),
        ):
            print(
                f"verdict flat out: moves/s {rate[kind]:.2f}x the "
                f"{ECHO_NAMES[kind]}'s frames/s, median of {len(moves)} pairs "
                f"({verdict(rate[kind] >= target)} the {target:g}x target)"
            )
        print(
            f"verdict flat out: servers' CPU {server_ms:.2f} ms a move "
            f"({verdict(server_ms <= FLAT_SERVER_CPU_MS)} the "
            f"{FLAT_SERVER_CPU_MS:g} ms target)"
        )
        print(
            f"verdict flat out: move p99 {move_p99 * 1000:.0f} ms "
            f"({verdict(move_p99 * 1000 <= FLAT_P99_MS)} the {FLAT_P99_MS} ms target)"
        )
    kind = "paced" if args.think else "flat out"
    print(
        f"verdict {kind}: {errors} errors, exceptions and unfinished tables or "
        f"echo groups in every phase ({verdict(errors == 0)} the 0 target)"
    )


if __name__ == "__main__":
    main()
