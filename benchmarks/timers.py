"""Turn timers at scale: many games where nobody moves, so every move is a
timeout made by the game's owner, measured against a bare asyncio loop.

    python benchmarks/timers.py [--games N] [--turn S] [--seconds T]
                                [--start spread|together] [--kill]
                                [--no-clients]
                                [--redis-db D] [--port P]

What it does, all on 127.0.0.1:

1. Starts an embedded PostgreSQL and Redis of its own in a fresh directory
   under /tmp (``servers.PrivateServices``: Unix sockets, no TCP port; no
   other server is touched), creates the database ``pulka_bench`` there and
   migrates it; the channel layer and the broker use Redis database D
   (default 14).
2. Starts two uvicorn processes (one worker each) on ports P and P+1 (free
   ports without ``--port``) serving the project and
   creates N Japanese Joker games (default 1,000) between people, with
   turns of S seconds (default 2); nobody connects. Each game is handed to
   the servers as soon as it has started (``--start spread``, the default:
   as a site's games start one after another, so their turns fall at
   different moments), or all of them at once after the last
   (``--start together``: every game's turn then falls in the same instant,
   the worst case). Each owner's alarm makes every move: a timeout, then the
   next turn's timer.
3. Runs for T seconds (default 30) from the moment the last game exists.
   With ``--kill`` the first server is killed with SIGKILL half-way: the
   other takes its games over.
   A client holds a WebSocket on every game (its first seat's, at the
   game's home process, as the proxy routes it; ``--no-clients`` leaves
   them out) and notes when each update reaches it.
4. Reads every event back and prints, for the timeout moves, how late each
   was after it was due (its turn's deadline plus the lag allowance), p50
   and p99, at three points: when the alarm fired (the event's time, taken
   as the step is decided), when the event's transaction committed
   (PostgreSQL's commit timestamp: ``track_commit_timestamp`` is turned on
   in the private server) and when the player's socket received the
   update carrying it. The target is judged on the commit, and on the
   socket where clients are connected. Then the same for a bare asyncio
   ``call_at`` loop keeping as many 2-second timers in one process, run
   right after; duplicates (two moves for one turn) and lost turns (a turn
   not moved within 10 s of its due time); with ``--kill``, how long the
   killed server's games went unowned (the sockets on the killed server
   are lost with it and not opened again).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import servers  # noqa: E402
from live_tables import BENCH_DATABASE  # noqa: E402
from servers import BASE_DIR, stop_server, wait_for_health  # noqa: E402

from common.redis_roles import celery_url  # noqa: E402

LOST_AFTER = 10.0
# Sockets opened at once by the clients, and the longest wait for them all.
CONNECT_AT_ONCE = 8
CONNECT_TIMEOUT = 600
TAKEOVER_TARGET = 10.0
TARGET_P99_MS = 10.0


def create_games(count: int, turn: int, hand_over: bool) -> list[int]:
    """``count`` started games between people; with ``hand_over`` each is
    handed to the servers as soon as it has started."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.live import outside
    from games.models import Game

    user_model = get_user_model()
    users = user_model.objects.bulk_create(
        [user_model(username=f"timer{n}", password="!") for n in range(count * 2)]
    )
    ids = []
    for n in range(count):
        table = services.table_create(
            user=users[2 * n], profile="japanese", turn_seconds=turn
        )
        services.seat_take(table_id=table.pk, user=users[2 * n + 1], number=1)
        ids.append(Game.objects.values_list("pk", flat=True).get(table=table))
        if hand_over:
            outside.hand_over(ids[-1:])
    return ids


def sessions_of_first_seats(game_ids: list[int]) -> dict[int, str]:
    """A signed-in session of each game's first seat: its key by game."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from games.models import Game, Seat

    tables = dict(Game.objects.filter(pk__in=game_ids).values_list("table", "pk"))
    keys = {}
    for seat in Seat.objects.filter(table__in=tables, number=0).select_related("user"):
        session = SessionStore()
        session[SESSION_KEY] = str(seat.user.pk)
        session[BACKEND_SESSION_KEY] = "accounts.backends.PasswordBackend"
        session[HASH_SESSION_KEY] = seat.user.get_session_auth_hash()
        session.create()
        keys[tables[seat.table_id]] = session.session_key
    return keys


class Clients:
    """A WebSocket on each game, on a thread of its own: when each update's
    events reached it (``received``, a Unix time by (game, version))."""

    def __init__(self, targets: list[tuple[int, str, str]]):
        self.targets = targets  # (game id, base URL, session key)
        self.received: dict[tuple[int, int], float] = {}
        self.errors: dict[str, int] = {}
        self.connected = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=60)

    def _error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        from live_tables import keep_alive, open_socket

        gate = asyncio.Semaphore(CONNECT_AT_ONCE)

        async def one(game_id, base, key):
            async with gate:
                url = base.replace("http", "ws", 1) + f"/ws/games/{game_id}/"
                ws = await open_socket(url, base, key)
            loop = asyncio.get_running_loop()
            ws.pinger = loop.create_task(keep_alive(ws))
            # Read from the moment it is open: an update is timed as it comes.
            return ws, loop.create_task(self._read(game_id, ws))

        opened = await asyncio.gather(
            *(one(*target) for target in self.targets), return_exceptions=True
        )
        sockets = []
        for result in opened:
            if isinstance(result, BaseException):
                self._error(f"connect {type(result).__name__}")
            else:
                sockets.append(result)
        self.connected.set()
        while not self.stop.is_set():
            await asyncio.sleep(0.2)
        for ws, _ in sockets:
            ws.pinger.cancel()
            await ws.close()
        readers = [reader for _, reader in sockets]
        for result in await asyncio.gather(*readers, return_exceptions=True):
            if isinstance(result, BaseException):
                self._error(f"reader {type(result).__name__}")

    async def _read(self, game_id: int, ws) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for frame in ws:
                at = time.time()
                message = json.loads(frame)
                if message.get("type") == "update":
                    for event in message.get("events", []):
                        self.received.setdefault((game_id, event["version"]), at)
        except ConnectionClosed:
            if not self.stop.is_set():
                self._error("closed")


def lateness(
    turn: float,
    lag: float,
    started: float,
    killed_at: float | None,
    received: dict,
):
    """Per timeout move, seconds after it was due: when its alarm fired, when
    its event was committed and when a socket received it (those received);
    the duplicates and the lost turns; and, for the games of a killed server,
    how long each went without a move (its deadline moved on by that time:
    not late)."""
    from django.db import connection

    from games.models import GameEvent

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT game_id, version, kind, cause, created_at,"
            " pg_xact_commit_timestamp(xmin)"
            f" FROM {GameEvent._meta.db_table} WHERE created_at >= %s"
            " ORDER BY game_id, version",
            [started_at(started)],
        )
        rows = cursor.fetchall()
    late, taken_over = [], []
    committed, socket = [], []
    duplicates = lost = 0
    previous = {}
    for game_id, version, kind, cause, at, commit in rows:
        before = previous.get(game_id)
        previous[game_id] = (version, at)
        if before is None or kind != "action":
            continue
        if version == before[0]:
            duplicates += 1
        gap = (at - before[1]).total_seconds()
        if cause == "timeout":
            due = turn + lag
            orphaned = (
                killed_at is not None
                and before[1].timestamp() < killed_at < at.timestamp()
                and gap - due > 1.0
            )
            if gap < due - 0.05:
                duplicates += 1  # moved before its time: a second timer
            elif orphaned:
                taken_over.append(gap)
            elif gap - due > LOST_AFTER:
                lost += 1
            else:
                late.append(gap - due)
                due_at = before[1].timestamp() + due
                committed.append(commit.timestamp() - due_at)
                if (game_id, version) in received:
                    socket.append(received[game_id, version] - due_at)
    return {"fired": late, "committed": committed, "socket": socket}, (
        duplicates,
        lost,
        taken_over,
    )


def started_at(wall: float):
    from datetime import UTC, datetime

    return datetime.fromtimestamp(wall, UTC)


async def bare_loop(count: int, turn: float, seconds: float) -> list[float]:
    """``count`` timers each re-armed every ``turn`` seconds with call_at."""
    loop = asyncio.get_running_loop()
    late: list[float] = []
    end = loop.time() + seconds

    def ring(due: float) -> None:
        now = loop.time()
        late.append(now - due)
        if now < end:
            loop.call_at(now + turn, ring, now + turn)

    for n in range(count):
        due = loop.time() + turn * (n / count)
        loop.call_at(due, ring, due)
    await asyncio.sleep(seconds + turn)
    return late


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--turn", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--kill", action="store_true")
    parser.add_argument(
        "--start",
        choices=["spread", "together"],
        default="spread",
        help="games handed over as each starts (their turns fall at different "
        "moments), or all at once after the last (every turn in the same instant)",
    )
    parser.add_argument(
        "--redis-db", type=int, default=14, help="database of the private Redis"
    )
    parser.add_argument(
        "--port", type=int, help="the first server's port, the second's next"
    )
    parser.add_argument(
        "--no-clients", action="store_true", help="no socket on the games"
    )
    args = parser.parse_args()
    with servers.PrivateServices() as services:
        run(args, services)


def run(args, services) -> None:
    # The commit time of each event (pg_xact_commit_timestamp) takes this.
    services.restart_postgres(track_commit_timestamp="on")
    db_url = services.create_database(BENCH_DATABASE)
    layer_url = services.redis_url(args.redis_db)
    ports = servers.ports(args.port, 2)
    nodes = [f"127.0.0.1:{port}" for port in ports]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DEBUG": "False",
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": db_url,
        "REDIS_URL": layer_url,
        "CELERY_BROKER_URL": celery_url(layer_url),
        "PULKA_ANY_TURN_SECONDS": "1",
        "PULKA_LIVE_NODES": ",".join(nodes),
    }
    os.environ.update(env)
    sys.path.insert(0, str(BASE_DIR))

    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from games.live.routing import home

    procs = []
    clients = None
    load_at_start = " ".join(f"{x:.2f}" for x in os.getloadavg())
    try:
        for name, port, node in zip(("first", "second"), ports, nodes, strict=True):
            log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"timers_{name}.log"
            proc = servers.start_uvicorn(
                ["config.asgi:application"],
                port,
                {**env, "PULKA_LIVE_NODE": node},
                log_path,
            )
            procs.append(proc)
            wait_for_health(proc, f"http://127.0.0.1:{port}/health/", log_path)
        began = time.perf_counter()
        spread = args.start == "spread"
        games = create_games(args.games, args.turn, hand_over=spread)
        print(
            f"timers: {len(games)} Japanese games, {args.turn} s turns, nobody "
            f"moving, 2 uvicorn processes, {args.seconds:g} s"
            f"{', the first killed with SIGKILL half-way' if args.kill else ''}, "
            f"{os.cpu_count()} CPUs, load average {load_at_start} at the start; "
            f"games created in {time.perf_counter() - began:.1f} s, "
            + (
                "each handed over as it started"
                if spread
                else "all handed over at once after the last"
            )
            + ("" if args.no_clients else "; a client socket on every game")
        )
        from games.live.outside import hand_over_unowned

        if not args.no_clients:
            # Open before the measurement starts: the games play meanwhile.
            began = time.perf_counter()
            keys = sessions_of_first_seats(games)
            clients = Clients(
                [
                    (game_id, f"http://{home(game_id, nodes)}", keys[game_id])
                    for game_id in games
                ]
            )
            clients.start()
            clients.connected.wait(timeout=CONNECT_TIMEOUT)
            print(
                f"client sockets open in {time.perf_counter() - began:.1f} s "
                "(sessions made and sockets opened before the measurement)"
            )
        started = time.time()
        handed = hand_over_unowned()
        killed_at = None
        left = max(0.0, started + args.seconds - time.time())
        if args.kill:
            time.sleep(left / 2)
            os.killpg(procs[0].pid, signal.SIGKILL)
            procs[0].wait()
            killed_at = time.time()
            time.sleep(left / 2)
        else:
            time.sleep(left)
    finally:
        if clients is not None:
            clients.close()
        for proc in procs:
            stop_server(proc)

    received = clients.received if clients else {}
    late, (duplicates, lost, taken_over) = lateness(
        args.turn, settings.PULKA_MOVE_LAG_SECONDS, started, killed_at, received
    )
    bare = asyncio.run(bare_loop(len(games), args.turn, min(args.seconds, 20)))

    print(f"handed over by the sweep at the start of the measurement: {handed}")
    print(
        f"\n{'timeout moves, late':<34}{'count':>8}{'p50 ms':>10}{'p99 ms':>10}"
        f"{'max ms':>10}"
    )
    rows = (
        ("when the alarm fired", late["fired"]),
        ("when its event was committed", late["committed"]),
        ("when the player's socket got it", late["socket"]),
        ("bare asyncio call_at", bare),
    )
    for name, values in rows:
        print(
            f"{name:<34}{len(values):>8}{percentile(values, 0.5) * 1000:>10.1f}"
            f"{percentile(values, 0.99) * 1000:>10.1f}"
            f"{(max(values) if values else float('nan')) * 1000:>10.1f}"
        )
    if clients is not None:
        errors = ", ".join(f"{k}: {n}" for k, n in sorted(clients.errors.items()))
        print(f"client errors: {errors or 'none'}")
    print(f"duplicates: {duplicates}, lost turns: {lost}")
    if killed_at is not None:
        within = sum(gap <= TAKEOVER_TARGET + args.turn for gap in taken_over)
        print(
            f"games of the killed server taken over: {len(taken_over)}, "
            f"{within} of them within {TAKEOVER_TARGET:g} s (plus the turn of "
            f"{args.turn} s); longest wait for a move {max(taken_over, default=0):.1f}"
            f" s (the deadline moved on by the wait)"
        )
    judged = [("committed", "to the commit of its event")]
    if clients is not None:
        judged.append(("socket", "to the player's socket"))
    for key, what in judged:
        p99 = percentile(late[key], 0.99) * 1000
        met = p99 <= TARGET_P99_MS and len(late[key]) > 0
        print(
            f"verdict: timeout p99 {what} {p99:.1f} ms over {len(late[key])} "
            f"timeouts ({'meets' if met else 'MISSES'} the {TARGET_P99_MS:g} ms "
            "target)"
        )
    print(
        f"verdict: {duplicates} duplicates, {lost} lost "
        f"({'meets' if duplicates == lost == 0 else 'MISSES'} the 0 target)"
    )


if __name__ == "__main__":
    main()
