"""Sockets routed to their game's home, as docker/ deploys the servers.

A real Caddy (Debian's, 2.6) with ``lb_policy uri_hash`` stands in front of
two uvicorn processes, each told the upstreams' names and its own
(``PULKA_LIVE_NODES``, ``PULKA_LIVE_NODE``). The proxy sends every socket of
a game to one process, ``routing.home`` says which, and that process owns
the game: the servers' hop counters (/health/) stay at zero while whole
tables play. A socket sent to the other process still plays, through the
channel layer, and the counter shows its hops.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from games import services
from games.live.routing import home
from games.models import Game
from tests.live.support import TableClient, wait_all_disconnected
from tests.live.test_owners import TAKEOVER_SECONDS, event_rows, kill
from tests.processes import Process, free_port, wait_for_http

CADDY = shutil.which("caddy")


def caddyfile(port: int, upstreams: list[str]) -> str:
    """The routing of docker/Caddyfile, on plain HTTP and this port."""
    targets = " ".join(upstreams)
    return f"""{{
\tadmin off
\tauto_https off
}}
:{port} {{
\t@game path /ws/games/*
\treverse_proxy @game {targets} {{
\t\tlb_policy uri_hash
\t\tfail_duration 10s
\t\tlb_try_duration 5s
\t}}
\treverse_proxy {targets}
}}
"""


def start_caddy(name: str, port: int, upstreams: list[str], log_dir) -> Process:
    assert CADDY, "Caddy is needed: apt-get install caddy (make test installs it)"
    config = log_dir / f"{name}.Caddyfile"
    config.write_text(caddyfile(port, upstreams))
    cmd = [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"]
    return Process(name, cmd, {"HOME": str(log_dir), "PATH": "/usr/bin:/bin"}, log_dir)


class Answering(BaseHTTPRequestHandler):
    """Answers every GET with the port it listens on."""

    def do_GET(self):
        body = str(self.server.server_address[1]).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_home_is_the_upstream_caddy_sends_a_game_to(log_dir):
    servers = [ThreadingHTTPServer(("127.0.0.1", 0), Answering) for _ in range(3)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    nodes = [f"127.0.0.1:{server.server_address[1]}" for server in servers]
    port = free_port()
    caddy = start_caddy("caddy-hash", port, nodes, log_dir)
    try:
        wait_for_http(caddy, f"http://127.0.0.1:{port}/ws/games/1/")
        chosen = {}
        for game_id in range(1, 121):
            url = f"http://127.0.0.1:{port}/ws/games/{game_id}/"
            with urllib.request.urlopen(url, timeout=5) as response:
                chosen[game_id] = f"127.0.0.1:{response.read().decode()}"
        assert chosen == {game_id: home(game_id, nodes) for game_id in chosen}
        assert set(chosen.values()) == set(nodes), "every upstream has games"
    finally:
        caddy.stop()
        for server in servers:
            server.shutdown()


def health(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/health/", timeout=5) as response:
        return json.loads(response.read())["live"]


def at_version(version: int):
    return lambda client: client.snapshot["version"] >= version


@pytest.mark.timeout(180)
@pytest.mark.django_db(transaction=True)
def test_routed_tables_play_without_a_channel_layer_hop(own_servers, people, log_dir):
    ports = [free_port(), free_port()]
    nodes = [f"127.0.0.1:{port}" for port in ports]
    urls = []
    for number, (port, node) in enumerate(zip(ports, nodes, strict=True), start=1):
        env = {"PULKA_LIVE_NODES": ",".join(nodes), "PULKA_LIVE_NODE": node}
        urls.append(own_servers(f"routed-{number}", port=port, env=env)[1])
    proxy_port = free_port()
    caddy = start_caddy("caddy-routed", proxy_port, nodes, log_dir)
    proxy = f"http://127.0.0.1:{proxy_port}"
    try:
        wait_for_http(caddy, f"{proxy}/health/")
        games = []
        # Homes hash from game ids and the nodes' (random) ports: six games
        # all land on one home about once in thirty runs, so tables are
        # opened until both homes have some.
        while len(games) < 6 or len({home(g, nodes) for g, _, _ in games}) < 2:
            assert len(games) < 30, "thirty games, all with one home"
            alice, bob = people(2)
            table = services.table_create(
                user=alice.user, profile="japanese", turn_seconds=120
            )
            services.seat_take(table_id=table.pk, user=bob.user, number=1)
            games.append((Game.objects.get(table=table).pk, alice, bob))
        homes = [home(game_id, nodes) for game_id, _, _ in games]

        async def play_all(base_of, version):
            async def one(game_id, alice, bob):
                async with (
                    TableClient(base_of(game_id), game_id, alice.session_key) as a,
                    TableClient(base_of(game_id), game_id, bob.session_key) as b,
                ):
                    await asyncio.gather(
                        a.play_until(at_version(version), timeout=60),
                        b.play_until(at_version(version), timeout=60),
                    )
                    return a, b

            return await asyncio.gather(*(one(*game) for game in games))

        played = asyncio.run(play_all(lambda game_id: proxy, 12))
        for a, b in played:
            assert not a.errors and not b.errors
        for game_id, _, _ in games:
            wait_all_disconnected(game_id)

        seen = [health(url) for url in urls]
        assert [live["sent"] for live in seen] == [0, 0]
        owned = [live["owned"] for live in seen]
        assert owned == [homes.count(node) for node in nodes]

        # The same tables with each socket sent to the other process: they
        # still play, through the channel layer, and the hops are counted.
        others = {node: url for node, url in zip(nodes, reversed(urls), strict=True)}
        played = asyncio.run(play_all(lambda game_id: others[home(game_id, nodes)], 20))
        for a, b in played:
            assert not a.errors and not b.errors
        assert all(health(url)["sent"] > 0 for url in urls)
    finally:
        caddy.stop()


@pytest.mark.timeout(180)
@pytest.mark.django_db(transaction=True)
def test_a_routed_game_goes_on_at_the_next_home_when_its_owner_is_killed(
    own_servers, people, log_dir
):
    """The home of a game is killed mid-game: the proxy sends the players'
    new sockets to the next process by the same hash, which takes the game
    over from the database, and play goes on with every acknowledged move
    kept once."""
    ports = [free_port(), free_port()]
    nodes = [f"127.0.0.1:{port}" for port in ports]
    servers = {}
    for number, (port, node) in enumerate(zip(ports, nodes, strict=True), start=1):
        env = {"PULKA_LIVE_NODES": ",".join(nodes), "PULKA_LIVE_NODE": node}
        servers[node] = own_servers(f"failover-{number}", port=port, env=env)
    proxy_port = free_port()
    caddy = start_caddy("caddy-failover", proxy_port, nodes, log_dir)
    proxy = f"http://127.0.0.1:{proxy_port}"
    try:
        wait_for_http(caddy, f"{proxy}/health/")
        alice, bob = people(2)
        table = services.table_create(
            user=alice.user, profile="japanese", turn_seconds=120
        )
        services.seat_take(table_id=table.pk, user=bob.user, number=1)
        game = Game.objects.get(table=table)
        first = home(game.pk, nodes)
        (survivor,) = set(nodes) - {first}

        async def scenario():
            async with (
                TableClient(proxy, game.pk, alice.session_key) as a,
                TableClient(proxy, game.pk, bob.session_key) as b,
            ):
                await asyncio.gather(
                    a.play_until(at_version(10), timeout=60),
                    b.play_until(at_version(10), timeout=60),
                )
                acked = {**a.acks, **b.acks}
            killed_at = time.monotonic()
            kill(servers[first][0])
            async with (
                TableClient(proxy, game.pk, alice.session_key) as a,
                TableClient(proxy, game.pk, bob.session_key) as b,
            ):
                await asyncio.gather(
                    a.receive_until(lambda c: c.snapshot is not None, timeout=30),
                    b.receive_until(lambda c: c.snapshot is not None, timeout=30),
                )
                back = time.monotonic() - killed_at
                await asyncio.gather(
                    a.play_until(at_version(24), timeout=60),
                    b.play_until(at_version(24), timeout=60),
                )
                return acked, {**a.acks, **b.acks}, back, a.errors + b.errors

        acked, later, back, errors = asyncio.run(scenario())
        wait_all_disconnected(game.pk)
    finally:
        caddy.stop()

    assert back < TAKEOVER_SECONDS + 5
    assert not [e for e in errors if e["code"] != "stale_version"]
    rows = event_rows(game.pk)
    assert [version for version, *_ in rows] == list(range(1, len(rows) + 1))
    by_client = {client: version for version, _, client, _ in rows if client}
    for client_id, ack in {**acked, **later}.items():
        assert by_client[client_id] == ack["version"]
    # The survivor owns the game now.
    live = health(servers[survivor][1])
    assert live["owned"] == 1
