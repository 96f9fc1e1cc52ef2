"""A flood from one socket against another table's moves.

    python benchmarks/flood.py [--moves M] [--time-limit S] [--redis-db D]
                               [--port P]

The server, database and Redis are set up as in ``live_tables.py``: an
embedded PostgreSQL and Redis of its own (``servers.PrivateServices``), a
``pulka_bench`` database there, Redis database D, one uvicorn worker on
127.0.0.1 at port P (a free one without ``--port``). Three Joker tables
(``georgian-club``: 24 deals, so that no game ends before its M moves) are
made. At one, four clients play M moves (thinking ``--think``
seconds on average, within the sockets' message rate), measuring each move's
round trip (action sent to its ``ack``); then at the second, the same again
while a player of the third table floods its socket with pings as fast as it
can send them, opening a new socket each time the server closes one (as an
attacker would). Prints the move round trip p50 and p99 in both runs, their
ratio, and what became of the flood (frames sent, sockets the server closed
and with which code). Target: the flooded p99 within 2x of the unflooded
one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

from django.conf import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

import live_tables as bench  # noqa: E402
import servers  # noqa: E402

from common.redis_roles import celery_url  # noqa: E402

# A Japanese match can end before the moves measured; a Joker game has 680.
PROFILE = "georgian-club"


async def flood(url: str, origin: str, cookie: str, stop: asyncio.Event) -> dict:
    from websockets.exceptions import ConnectionClosed

    sent, closes, refused = 0, {}, 0
    frame = '{"type": "ping"}'
    while not stop.is_set():
        try:
            ws = await bench.open_socket(url, origin, cookie)
        except Exception:  # refused at the handshake: try again at once
            refused += 1
            await asyncio.sleep(0)
            continue
        try:
            while not stop.is_set():
                await ws.send(frame)
                sent += 1
                if sent % 64 == 0:
                    await asyncio.sleep(0)  # let the measured clients run
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            closes[code] = closes.get(code, 0) + 1
        finally:
            await ws.close()
    return {"sent": sent, "closes": closes, "refused": refused}


async def measured(base: str, table, moves: int, think: float, time_limit: float):
    # One server: every socket goes to it.
    return await bench.run_moves(
        [base], lambda game_id, n: base, [table], moves, think, time_limit
    )


async def flooded(base, table, flooder, moves: int, think: float, time_limit: float):
    stop = asyncio.Event()
    game_id, cookie = flooder
    url = f"{base.replace('http', 'ws', 1)}/ws/games/{game_id}/"
    attack = asyncio.create_task(flood(url, base, cookie, stop))
    await asyncio.sleep(1)  # the flood under way first
    began = time.perf_counter()
    stats = await measured(base, table, moves, think, time_limit)
    stop.set()
    result = await attack
    result["seconds"] = time.perf_counter() - began
    return stats, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="per run")
    parser.add_argument(
        "--think",
        type=float,
        default=0.15,
        help="mean seconds a measured player thinks (a socket may send 10 "
        "messages a second)",
    )
    parser.add_argument("--time-limit", type=float, default=120)
    parser.add_argument(
        "--redis-db", type=int, default=14, help="database of the private Redis"
    )
    parser.add_argument("--port", type=int, help="the server's port (default: free)")
    args = parser.parse_args()
    with servers.PrivateServices() as services:
        run(args, services)


def run(args, services) -> None:
    db_url = services.create_database(bench.BENCH_DATABASE)
    layer_url = services.redis_url(args.redis_db)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DEBUG": "False",
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": db_url,
        "REDIS_URL": layer_url,
        "CELERY_BROKER_URL": celery_url(layer_url),
    }
    os.environ.update(env)
    sys.path.insert(0, str(bench.BASE_DIR))

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)

    port = servers.ports(args.port, 1)[0]
    base = f"http://127.0.0.1:{port}"
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"flood_{port}.log"
    proc = servers.start_uvicorn(["config.asgi:application"], port, env, log_path)
    try:
        servers.wait_for_health(proc, f"{base}/health/", log_path)
        quiet, busy, flooders = bench.create_tables(3, PROFILE)
        alone = asyncio.run(
            measured(base, quiet, args.moves, args.think, args.time_limit)
        )
        under, attack = asyncio.run(
            flooded(base, busy, flooders[0], args.moves, args.think, args.time_limit)
        )
    finally:
        servers.stop_server(proc)

    print(
        f"flood: one uvicorn worker, {os.cpu_count()} CPUs; {args.moves} moves "
        f"of one {PROFILE} table, alone and while another table's player "
        "floods pings"
    )
    print(f"\n{'':<22}{'moves':>7}{'p50 ms':>9}{'p99 ms':>9}")
    for name, stats in (("alone", alone), ("under the flood", under)):
        trips = stats.round_trips
        print(
            f"{name:<22}{len(trips):>7}"
            f"{bench.percentile(trips, 0.5) * 1000:>9.1f}"
            f"{bench.percentile(trips, 0.99) * 1000:>9.1f}"
        )
    rate = attack["sent"] / attack["seconds"] if attack["seconds"] else 0
    print(
        f"\nthe flood: {attack['sent']} frames in {attack['seconds']:.1f} s "
        f"({rate:.0f}/s); sockets the server closed, by code: {attack['closes']} "
        "(4429: for flooding, or as they opened while the session was paused "
        f"for {settings.PULKA_SOCKET_FLOOD_PAUSE} s after a flood); refused at "
        f"the handshake: {attack['refused']}"
    )
    ratio = bench.percentile(under.round_trips, 0.99) / bench.percentile(
        alone.round_trips, 0.99
    )
    met = "meets" if ratio <= 2 else "MISSES"
    print(f"verdict: flooded p99 / alone p99: {ratio:.2f}x ({met} the 2x target)")


if __name__ == "__main__":
    main()
