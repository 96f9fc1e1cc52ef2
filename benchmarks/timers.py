"""Turn timers at scale: many games where nobody moves, so every move is a
timeout made by the game's owner, measured against a bare asyncio loop.

    python benchmarks/timers.py [--games N] [--turn S] [--seconds T]
                                [--start spread|together] [--kill]
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
4. Reads every event back and prints, for the timeout moves, how late each
   came after it was due (its turn's deadline plus the lag allowance), p50
   and p99; the same for a bare asyncio ``call_at`` loop keeping as many
   2-second timers in one process, run right after; duplicates (two moves
   for one turn) and lost turns (a turn not moved within 10 s of its due
   time); with ``--kill``, how long the killed server's games went unowned.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import servers  # noqa: E402
from live_tables import BENCH_DATABASE  # noqa: E402
from servers import BASE_DIR, stop_server, wait_for_health  # noqa: E402

from config.embedded import celery_url  # noqa: E402

LOST_AFTER = 10.0
TAKEOVER_TARGET = 10.0
TARGET_P99_MS = 10.0


def create_games(count: int, turn: int, hand_over: bool) -> list[int]:
    """``count`` started games between people; with ``hand_over`` each is
    handed to the servers as soon as it has started."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.live import relay
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
            relay.hand_over(ids[-1:])
    return ids


def lateness(turn: float, lag: float, started: float, killed_at: float | None):
    """Per timeout move, seconds after it was due; the duplicates and the
    lost turns; and, for the games of a killed server, how long each went
    without a move (its deadline moved on by that time: not late)."""
    from games.models import GameEvent

    rows = (
        GameEvent.objects.filter(created_at__gte=started_at(started))
        .order_by("game_id", "version")
        .values_list("game_id", "version", "kind", "cause", "created_at")
    )
    late, taken_over = [], []
    duplicates = lost = 0
    previous = {}
    for game_id, version, kind, cause, at in rows:
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
    return late, duplicates, lost, taken_over


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
    args = parser.parse_args()
    with servers.PrivateServices() as services:
        run(args, services)


def run(args, services) -> None:
    db_url = services.create_database(BENCH_DATABASE)
    layer_url = services.redis_url(args.redis_db)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DEBUG": "False",
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": db_url,
        "REDIS_URL": layer_url,
        "CELERY_BROKER_URL": celery_url(layer_url),
        "PULKA_ANY_TURN_SECONDS": "1",
    }
    os.environ.update(env)
    sys.path.insert(0, str(BASE_DIR))

    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    procs = []
    try:
        pairs = zip(("first", "second"), servers.ports(args.port, 2), strict=True)
        for name, port in pairs:
            log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"timers_{name}.log"
            proc = servers.start_uvicorn(
                ["config.asgi:application"], port, env, log_path
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
            f"{os.cpu_count()} CPUs; games created in "
            f"{time.perf_counter() - began:.1f} s, "
            + (
                "each handed over as it started"
                if spread
                else "all handed over at once after the last"
            )
        )
        from games.services import hand_over_unowned

        started = time.time()
        handed = hand_over_unowned()
        killed_at = None
        if args.kill:
            time.sleep(args.seconds / 2)
            os.killpg(procs[0].pid, signal.SIGKILL)
            procs[0].wait()
            killed_at = time.time()
            time.sleep(args.seconds / 2)
        else:
            time.sleep(args.seconds)
    finally:
        for proc in procs:
            stop_server(proc)

    late, duplicates, lost, taken_over = lateness(
        args.turn, settings.PULKA_MOVE_LAG_SECONDS, started, killed_at
    )
    bare = asyncio.run(bare_loop(len(games), args.turn, min(args.seconds, 20)))

    print(f"handed over by the sweep at the start of the measurement: {handed}")
    print(f"\n{'':<22}{'count':>8}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for name, values in (("timeout moves", late), ("bare asyncio call_at", bare)):
        print(
            f"{name:<22}{len(values):>8}{percentile(values, 0.5) * 1000:>10.1f}"
            f"{percentile(values, 0.99) * 1000:>10.1f}"
            f"{(max(values) if values else float('nan')) * 1000:>10.1f}"
        )
    print(f"duplicates: {duplicates}, lost turns: {lost}")
    if killed_at is not None:
        within = sum(gap <= TAKEOVER_TARGET + args.turn for gap in taken_over)
        print(
            f"games of the killed server taken over: {len(taken_over)}, "
            f"{within} of them within {TAKEOVER_TARGET:g} s (plus the turn of "
            f"{args.turn} s); longest wait for a move {max(taken_over, default=0):.1f}"
            f" s (the deadline moved on by the wait)"
        )
    p99 = percentile(late, 0.99) * 1000
    met = p99 <= TARGET_P99_MS
    print(
        f"verdict: timeout p99 {p99:.1f} ms ({'meets' if met else 'MISSES'} the "
        f"{TARGET_P99_MS:g} ms target)"
    )
    print(
        f"verdict: {duplicates} duplicates, {lost} lost "
        f"({'meets' if duplicates == lost == 0 else 'MISSES'} the 0 target)"
    )


if __name__ == "__main__":
    main()
