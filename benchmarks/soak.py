"""Soak check of a running platform: bot tables played for a long time.

    python benchmarks/soak.py [--url http://127.0.0.1:8000] [--tables 10]
                              [--minutes 30] [--stall 15]

Meant for the platform as `make run` starts it, with fast bots:

    PULKA_BOT_MOVE_SECONDS=0.25 make run        # one terminal
    .venv/bin/python benchmarks/soak.py          # another

It seats practice bots at every seat of N tables (half Japanese Joker, half
Joker), through the same service a tournament round uses, in the database
the platform runs on (DATABASE_URL, or this checkout's embedded PostgreSQL).
A spectator WebSocket watches each table. Whenever a game ends another takes
its place, so N games are always in play. Every few seconds it checks that
each game's version has moved, and the platform's /health/.

At the end it prints moves made, moves per second, the longest time a game
went without a move (database) and without an update on its socket, games
finished, and every stall: a game whose version did not move for --stall
seconds. It exits 1 if any game stalled or /health/ failed once.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import urllib.request
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django  # noqa: E402

django.setup()

from asgiref.sync import sync_to_async  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from games import services  # noqa: E402
from games.models import Game  # noqa: E402
from tests.live.support import session_cookie  # noqa: E402

PROFILES = [("japanese", {"target": 11}, 2), ("georgian-club", {}, 4)]
CHECK_EVERY = 2.0


def owner():
    return get_user_model().objects.get_or_create(username="soak-owner")[0]


def session_key() -> str:
    """A signed-in session for the tables' owner, who watches them."""
    return session_cookie(owner())


def new_game(index: int) -> int:
    """A table of practice bots only, its game started: the game's id."""
    profile, options, players = PROFILES[index % len(PROFILES)]
    table = services.table_create_seated(
        profile=profile,
        options=options,
        turn_seconds=30,
        players=[None] * players,
        created_by=owner(),
    )
    return Game.objects.get(table=table).pk


def versions(game_ids: list[int]) -> dict[int, tuple[int, str]]:
    rows = Game.objects.filter(pk__in=game_ids).values_list("pk", "version", "status")
    return {pk: (version, status) for pk, version, status in rows}


class Watcher:
    """A spectator socket on one game: when its last update came."""

    def __init__(self, url: str, game_id: int, session: str):
        self.url = f"{url.replace('http', 'ws', 1)}/ws/games/{game_id}/"
        self.origin = url
        self.cookie = {"Cookie": f"sessionid={session}"}
        self.last = time.monotonic()
        self.longest_gap = 0.0
        self.updates = 0
        self.over = False

    async def run(self) -> None:
        async with connect(
            self.url, origin=self.origin, additional_headers=self.cookie, proxy=None
        ) as ws:
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] != "update":
                    continue
                now = time.monotonic()
                self.longest_gap = max(self.longest_gap, now - self.last)
                self.last, self.updates = now, self.updates + 1
                if message["status"] != "playing":
                    self.over = True
                    return


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health/", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


async def soak(args) -> int:
    started = time.monotonic()
    end = started + args.minutes * 60
    games = {}  # game id -> (watcher, task, last version, when it last moved)
    finished = moves = health_failures = 0
    stalls: list[str] = []
    longest_db_gap = longest_socket_gap = 0.0

    session = await sync_to_async(session_key)()

    async def add(index: int) -> None:
        game_id = await sync_to_async(new_game)(index)
        watcher = Watcher(args.url, game_id, session)
        task = asyncio.create_task(watcher.run())
        games[game_id] = [watcher, task, 0, time.monotonic(), index]

    for index in range(args.tables):
        await add(index)
    while time.monotonic() < end:
        await asyncio.sleep(CHECK_EVERY)
        now = time.monotonic()
        if not await asyncio.to_thread(healthy, args.url):
            health_failures += 1
            print(f"{now - started:7.0f}s /health/ failed", flush=True)
        current = await sync_to_async(versions)(list(games))
        for game_id, entry in list(games.items()):
            watcher, task, last_version, moved_at, index = entry
            version, status = current[game_id]
            if version != last_version:
                moves += version - last_version
                longest_db_gap = max(longest_db_gap, now - moved_at)
                entry[2], entry[3] = version, now
            elif now - moved_at > args.stall:
                stalls.append(f"game {game_id} at version {version}")
                print(f"{now - started:7.0f}s STALL game {game_id}", flush=True)
                entry[3] = now  # report it again only after another stall
            if status != Game.Status.PLAYING:
                finished += 1
                longest_socket_gap = max(longest_socket_gap, watcher.longest_gap)
                await asyncio.wait_for(task, timeout=10)
                del games[game_id]
                await add(index)
        if int(now - started) % 60 < CHECK_EVERY:
            print(
                f"{now - started:7.0f}s moves {moves} finished {finished} "
                f"stalls {len(stalls)}",
                flush=True,
            )
    for watcher, task, *_ in games.values():
        longest_socket_gap = max(longest_socket_gap, watcher.longest_gap)
        task.cancel()
    elapsed = time.monotonic() - started
    print(f"tables {args.tables}, {elapsed / 60:.1f} minutes")
    print(f"moves {moves} ({moves / elapsed:.1f}/s), games finished {finished}")
    print(f"longest time without a move: {longest_db_gap:.2f} s (database)")
    print(f"longest time without an update: {longest_socket_gap:.2f} s (socket)")
    print(f"stalls {len(stalls)} {stalls}, /health/ failures {health_failures}")
    return 1 if stalls or health_failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--stall", type=float, default=15)
    return asyncio.run(soak(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
