"""Practice bots under load: tables of one person and three bots at human
pace on one node, and the share of the bots' moves given their whole
thinking budget.

    python benchmarks/bot_tables.py [--tables 50] [--peer-tables 2]
                                    [--seconds 120] [--think 3]
                                    [--bot-seconds 0.25] [--bot-pause 1]
                                    [--bot-processes N] [--redis-db D]
                                    [--port P]

What it does, all on 127.0.0.1:

1. Starts an embedded PostgreSQL and Redis of its own
   (``servers.PrivateServices``, as ``live_tables.py`` does), creates and
   migrates the database ``pulka_bots`` there, and starts one uvicorn
   process serving the site as ``make run`` does (its practice bots in the
   bot processes of ``games.live.bot_pool``), with the normal bot's budget
   ``--bot-seconds`` (``PULKA_PRACTICE_BOT_SECONDS``) and the bots' pause
   ``--bot-pause`` (``PULKA_BOT_MOVE_SECONDS``, 1 s as the site has it).
2. Runs two phases on that node, one after the other, each for
   ``--seconds``: the peer, ``--peer-tables`` tables (2), where the bot
   processes are idle most of the time; then the load, ``--tables`` tables
   (50). A table is a Joker game (``georgian-club``) of one person and three
   normal practice bots. The person is a WebSocket client speaking the
   site's protocol (``live_tables.play_seat``): when the position it was
   sent says it may move, it thinks a random time between T/2 and 3T/2
   seconds (``--think``, 3 s) and plays the first of the legal choices it
   was sent. At the end of a phase its games are annulled, as an operator
   would (``games.services.annul``), so that their bots stop.
3. Prints, per phase: the bot moves made (counted from the game events of
   the phase), the share given their level's whole budget (the budget
   recorded with each move against the normal level's, and the share that
   thought at least 80% of it: a move with one legal choice thinks nothing),
   thinking p50/p90, the bot processes' CPU (every process the server
   started, as a share of one core), the server's own CPU, the person's move
   round trip (action to ``ack``) p50/p99, and errors (an ``error`` message,
   a socket closed early, an exception in a client); then what /health/
   said of the bots. A verdict line judges the load phase: at least 90% of
   its bot moves given their whole budget, and no error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import servers  # noqa: E402
from live_tables import (  # noqa: E402
    Stats,
    Table,
    connect_all,
    cpu_seconds,
    judge,
    percentile,
    play_seat,
)
from servers import BASE_DIR, stop_server, wait_for_health  # noqa: E402

from common.redis_roles import celery_url  # noqa: E402

DATABASE = "pulka_bots"
PROFILE = "georgian-club"
TURN_SECONDS = 30
TARGET_FULL = 0.90
# No table of a phase plays anywhere near this many of its person's moves.
MOVES_UNBOUNDED = 10**6


@dataclass
class Phase:
    name: str
    tables: int
    stats: Stats
    seconds: float
    thinking: list[int]
    budgets: list[int]
    bot_cpu: float
    server_cpu: float
    health: dict


def descendants(pid: int) -> list[int]:
    """Every process started by ``pid`` and by those it started (the bot
    pool's fork server, its workers, the resource tracker)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, of in parents.items() if of == parent]
        found += children
        frontier += children
    return found


def cpu_of(pids: list[int]) -> dict[int, float]:
    times = {}
    for pid in pids:
        try:
            times[pid] = cpu_seconds(pid)
        except OSError:
            continue
    return times


def create_tables(count: int, first: int) -> list[tuple[int, str]]:
    """``count`` started games of one person and three practice bots; for
    each, the game's id and the person's session key."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Game
    from tests.live.support import session_cookie

    made = []
    for n in range(first, first + count):
        user = get_user_model().objects.create(username=f"person{n}", password="!")
        table = services.table_create_seated(
            profile=PROFILE,
            options={},
            turn_seconds=TURN_SECONDS,
            players=[user, None, None, None],
            created_by=user,
            managed=False,
        )
        game_id = Game.objects.values_list("pk", flat=True).get(table=table)
        made.append((game_id, session_cookie(user)))
    return made


def annul(game_ids: list[int]) -> None:
    from django.contrib.auth import get_user_model

    from games.services.annul import game_annul

    operator, _ = get_user_model().objects.get_or_create(
        username="bench-operator", defaults={"is_staff": True}
    )
    for game_id in game_ids:
        game_annul(game_id=game_id, by=operator)


def bot_moves(game_ids: list[int], since, until) -> tuple[list[int], list[int]]:
    """The thinking and the budget, in ms, of the practice bots' moves in
    the games between the two times."""
    from games.models import GameEvent

    rows = GameEvent.objects.filter(
        game_id__in=game_ids,
        cause=GameEvent.Cause.BOT,
        budget_ms__isnull=False,
        created_at__gte=since,
        created_at__lt=until,
    ).values_list("thinking_ms", "budget_ms")
    return [t for t, _ in rows], [b for _, b in rows]


def health(base: str) -> dict:
    """What /health/ says of the bots; on a 503 (a check failed on a busy
    machine), that too, with the checks that failed."""
    try:
        with urllib.request.urlopen(f"{base}/health/", timeout=10) as response:
            body = json.loads(response.read())
    except urllib.error.HTTPError as error:
        body = json.loads(error.read())
        failed = [name for name, check in body.items() if _failed(check)]
        return {**body["live"]["bots"], "status": error.code, "failed": failed}
    return body["live"]["bots"]


def _failed(check) -> bool:
    return isinstance(check, dict) and check.get("status") == "error"


async def play(base: str, games: list[tuple[int, str]], think: float, seconds: float):
    """A person at each game for ``seconds``: the client's figures."""
    stats = Stats()
    targets = [(base, f"/ws/games/{game_id}/", cookie) for game_id, cookie in games]
    began = time.perf_counter()
    sockets = await connect_all(targets, ping=True)
    stats.connect_seconds = time.perf_counter() - began
    start = asyncio.Event()
    tables, tasks = [], []
    for n, ws in enumerate(sockets):
        table = Table(MOVES_UNBOUNDED)
        table.sockets = [ws]
        tables.append(table)
        tasks.append(
            asyncio.create_task(play_seat(ws, table, stats, start, think, seed=n))
        )
    await asyncio.sleep(1)  # every sync in
    stats.started = time.perf_counter()
    start.set()
    _, late = await asyncio.wait(tasks, timeout=seconds)
    stats.finished = time.perf_counter()
    for table in tables:
        await table.finish()
    for task in late:
        task.cancel()
    judge(stats, tasks, late, await asyncio.gather(*tasks, return_exceptions=True))
    return stats


def run_phase(name: str, tables: int, first: int, args, base: str, server) -> Phase:
    from django.utils import timezone

    games = create_tables(tables, first)
    game_ids = [game_id for game_id, _ in games]
    since = timezone.now()
    bots_before = cpu_of(descendants(server.pid))
    server_before = cpu_seconds(server.pid)
    began = time.perf_counter()
    stats = asyncio.run(play(base, games, args.think, args.seconds))
    elapsed = time.perf_counter() - began
    bots_after = cpu_of(descendants(server.pid))
    server_used = cpu_seconds(server.pid) - server_before
    until = timezone.now()
    seen = health(base)
    annul(game_ids)
    thinking, budgets = bot_moves(game_ids, since, until)
    bot_used = sum(cpu - bots_before.get(pid, 0.0) for pid, cpu in bots_after.items())
    return Phase(
        name, tables, stats, elapsed, thinking, budgets, bot_used, server_used, seen
    )


def report(phases: list[Phase], full_ms: int) -> None:
    print(
        f"{'phase':<6}{'tables':>7}{'bot moves':>10}{'/s':>6}{'full budget':>12}"
        f"{'thought>=80%':>13}{'think p50':>10}{'p90':>6}{'bot CPU':>9}"
        f"{'server CPU':>11}{'move p50':>9}{'p99':>8}{'errors':>7}"
    )
    for phase in phases:
        moves = len(phase.budgets)
        full = sum(budget >= full_ms for budget in phase.budgets) / max(moves, 1)
        thought = sum(t >= 0.8 * full_ms for t in phase.thinking) / max(moves, 1)
        trips = phase.stats.round_trips
        print(
            f"{phase.name:<6}{phase.tables:>7}{moves:>10}"
            f"{moves / phase.seconds:>6.1f}{full:>12.1%}{thought:>13.1%}"
            f"{percentile(phase.thinking, 0.5):>8.0f}ms"
            f"{percentile(phase.thinking, 0.9):>6.0f}"
            f"{phase.bot_cpu / phase.seconds:>9.1%}"
            f"{phase.server_cpu / phase.seconds:>11.1%}"
            f"{percentile(trips, 0.5) * 1000:>7.1f}ms"
            f"{percentile(trips, 0.99) * 1000:>8.1f}"
            f"{sum(phase.stats.errors.values()):>7}"
        )
    for phase in phases:
        errors = ", ".join(f"{k}: {n}" for k, n in sorted(phase.stats.errors.items()))
        print(
            f"{phase.name}: person's moves {len(phase.stats.round_trips)}, "
            f"connect {phase.stats.connect_seconds:.1f} s; /health/ bots at the "
            f"end: {phase.health}" + (f"; errors: {errors}" if errors else "")
        )
    load = phases[-1]
    moves = len(load.budgets)
    full = sum(budget >= full_ms for budget in load.budgets) / max(moves, 1)
    errors = sum(load.stats.errors.values())
    met = moves > 0 and full >= TARGET_FULL and not errors
    print(
        f"{'met' if met else 'MISSED'}: {load.tables} tables, {full:.1%} of "
        f"{moves} bot moves given their full budget (target >= "
        f"{TARGET_FULL:.0%}), {errors} errors (target 0)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--peer-tables", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=120, help="per phase")
    parser.add_argument(
        "--think", type=float, default=3.0, help="the person's mean seconds a move"
    )
    parser.add_argument(
        "--bot-seconds",
        type=float,
        default=0.25,
        help="the normal bot's budget a move (PULKA_PRACTICE_BOT_SECONDS)",
    )
    parser.add_argument(
        "--bot-pause",
        type=float,
        default=1.0,
        help="a bot's pause before its move (PULKA_BOT_MOVE_SECONDS)",
    )
    parser.add_argument(
        "--bot-processes",
        type=int,
        help="PULKA_BOT_PROCESSES (default: the site's, one per core)",
    )
    parser.add_argument("--redis-db", type=int, default=15)
    parser.add_argument("--port", type=int, help="uvicorn's port (default: free)")
    args = parser.parse_args()
    if args.tables < 1 or args.peer_tables < 1 or args.seconds <= 0:
        parser.error("--tables, --peer-tables and --seconds must be positive")
    with servers.PrivateServices() as services:
        run(args, services)


def run(args, services) -> None:
    db_url = services.create_database(DATABASE)
    layer_url = services.redis_url(args.redis_db)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DEBUG": "False",
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": db_url,
        "REDIS_URL": layer_url,
        "CELERY_BROKER_URL": celery_url(layer_url),
        "PULKA_PRACTICE_BOT_SECONDS": str(args.bot_seconds),
        "PULKA_BOT_MOVE_SECONDS": str(args.bot_pause),
    }
    if args.bot_processes:
        env["PULKA_BOT_PROCESSES"] = str(args.bot_processes)
    os.environ.update(env)
    sys.path.insert(0, str(BASE_DIR))

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from django.conf import settings

    (port,) = servers.ports(args.port, 1)
    base = f"http://127.0.0.1:{port}"
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bot_tables_{port}.log"
    server = servers.start_uvicorn(["config.asgi:application"], port, env, log)
    try:
        wait_for_health(server, f"{base}/health/", log)
        print(
            f"bot tables: {PROFILE}, one person (thinking {args.think:g} s a move "
            f"on average) and three normal practice bots a table, the bot's "
            f"budget {args.bot_seconds * 1000:g} ms and pause {args.bot_pause:g} s, "
            f"{settings.PULKA_BOT_PROCESSES} bot processes, one uvicorn process, "
            f"{args.seconds:g} s a phase, {os.cpu_count()} CPUs, load average "
            f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start",
            flush=True,
        )
        phases = [run_phase("peer", args.peer_tables, 0, args, base, server)]
        phases.append(
            run_phase("load", args.tables, args.peer_tables, args, base, server)
        )
        report(phases, round(args.bot_seconds * 1000))
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    finally:
        stop_server(server)
        lines = log.read_text().splitlines()
        if any("Traceback" in line or "ERROR" in line for line in lines):
            print(f"server log ({log}):\n" + "\n".join(lines[-40:]))


if __name__ == "__main__":
    main()
