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
import http.cookiejar
import json
import shutil
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games import services
from games.live.routing import home
from games.models import Game
from tests.books import NOTHING_AMISS, books
from tests.live.conftest import start_server
from tests.live.support import TableClient, wait_all_disconnected
from tests.live.test_owners import TAKEOVER_SECONDS, event_rows, kill
from tests.processes import Process, free_port, wait_for_http

CADDY = shutil.which("caddy")


DEPLOYED_CADDYFILE = Path(__file__).resolve().parents[2] / "docker" / "Caddyfile"


def caddyfile(port: int, upstreams: list[str]) -> str:
    """docker/Caddyfile itself, on plain HTTP, this port and these upstreams
    (the test runs what is deployed, not a copy of it)."""
    deployed = DEPLOYED_CADDYFILE.read_text()
    assert deployed.count("web1:8000 web2:8000") == 2
    routed = deployed.replace("web1:8000 web2:8000", " ".join(upstreams)).replace(
        "{$SITE_ADDRESS:localhost} {", f":{port} {{"
    )
    return "{\n\tadmin off\n\tauto_https off\n}\n" + routed


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


def node_env(nodes: list[str], node: str) -> dict:
    """A web process's environment as one of ``nodes``. Its players keep
    their seats for a minute when their sockets close (the live tests' 2 s
    grace would otherwise resign a player whose socket the drill closed,
    or killed, and end the game before it goes on elsewhere)."""
    return {
        "PULKA_LIVE_NODES": ",".join(nodes),
        "PULKA_LIVE_NODE": node,
        "PULKA_DISCONNECT_GRACE_SECONDS": "60",
    }


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
        env = node_env(nodes, node)
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
        env = node_env(nodes, node)
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
    assert books([game.pk]) == NOTHING_AMISS


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer too: counted, not followed."""

    def redirect_request(self, *args, **kwargs):
        return None


class Prober(threading.Thread):
    """Asks the proxy for pages, the API, the health check and a form, one
    request after another until stopped, and counts each answer by status
    (599 for no answer at all)."""

    ROUTES = ("/", "/accounts/login/", "/health/", "/api/v1/")

    def __init__(self, proxy: str):
        super().__init__(daemon=True)
        self.proxy = proxy
        self.statuses: dict[tuple[str, int], int] = {}
        self.stopping = threading.Event()
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), NoRedirects()
        )

    def ask(self, route: str, data: bytes | None = None, headers=None) -> None:
        request = urllib.request.Request(
            f"{self.proxy}{route}", data=data, headers=headers or {}
        )
        try:
            with self.opener.open(request, timeout=10) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        except OSError:
            status = 599
        key = ("POST " if data else "GET ") + route, status
        self.statuses[key] = self.statuses.get(key, 0) + 1

    def form(self) -> None:
        """The language form, with the CSRF token of the cookie a page set."""
        token = next((c.value for c in self.cookies if c.name == "csrftoken"), "")
        data = f"language=en&next=/&csrfmiddlewaretoken={token}".encode()
        self.ask("/i18n/setlang/", data, {"Origin": self.proxy})

    def run(self):
        while not self.stopping.is_set():
            for route in self.ROUTES:
                self.ask(route)
            self.form()

    def errors(self) -> dict:
        return {key: n for key, n in self.statuses.items() if key[1] >= 500}


@pytest.mark.timeout(180)
@pytest.mark.django_db(transaction=True)
def test_a_killed_node_costs_nothing_but_its_own_sockets(own_servers, people, log_dir):
    """The deployed proxy (docker/Caddyfile) in front of two processes, one
    killed with SIGKILL mid-game while pages, the API, the health check and
    a form are asked for through the proxy all along: none of them fails
    (the proxy asks each process whether it lives, and sends a request
    that could not reach one to the other). The player to move opens a
    socket again at once and sends the move it was about to make before
    the new owner exists: the move is kept and played once the game is
    taken over, within the lease and a heartbeat or two (it was dropped)."""
    from games.live.leases import HEARTBEAT_SECONDS, LEASE_SECONDS

    ports = [free_port(), free_port()]
    nodes = [f"127.0.0.1:{port}" for port in ports]
    servers = {}
    for number, (port, node) in enumerate(zip(ports, nodes, strict=True), start=1):
        env = node_env(nodes, node)
        servers[node] = own_servers(f"drill-{number}", port=port, env=env)
    proxy_port = free_port()
    caddy = start_caddy("caddy-drill", proxy_port, nodes, log_dir)
    proxy = f"http://127.0.0.1:{proxy_port}"
    prober = Prober(proxy)
    try:
        wait_for_http(caddy, f"{proxy}/health/")
        alice, bob = people(2)
        table = services.table_create(
            user=alice.user, profile="japanese", turn_seconds=120
        )
        services.seat_take(table_id=table.pk, user=bob.user, number=1)
        game = Game.objects.get(table=table)
        first = home(game.pk, nodes)
        keys = {0: alice.session_key, 1: bob.session_key}

        async def scenario():
            async with (
                TableClient(proxy, game.pk, alice.session_key) as a,
                TableClient(proxy, game.pk, bob.session_key) as b,
            ):
                await asyncio.gather(
                    a.play_until(at_version(10), timeout=60),
                    b.play_until(at_version(10), timeout=60),
                )
                await asyncio.sleep(0.5)  # what is in flight lands
                mover = a if a.my_turn() else b
                assert mover.my_turn()
                snapshot, seat = mover.snapshot, mover.you
            prober.start()
            await asyncio.sleep(2)  # the probes see both processes up
            killed_at = time.monotonic()
            kill(servers[first][0])
            # Back at once, before anyone owns the game again: the move it
            # was about to make, sent as the protocol allows on a resync.
            # A socket the network closes is opened again and the move sent
            # again (same id), as the page does; one that stays open and
            # silent is what the move must not meet.
            client_id = f"v{snapshot['version']}"
            for _ in range(3):
                again = TableClient(proxy, game.pk, keys[seat])
                again.ws = await connect(
                    again.url,
                    origin=proxy,
                    additional_headers={"Cookie": f"sessionid={keys[seat]}"},
                    proxy=None,
                    open_timeout=10,
                )
                again.snapshot = snapshot
                assert await again.act() == client_id
                try:
                    await again.receive_until(lambda c: client_id in c.acks, 30)
                    break
                except ConnectionClosed:
                    continue
            acked_after = time.monotonic() - killed_at
            await again.ws.close()
            await asyncio.sleep(3)  # the probes go on after the takeover
            return client_id, again.acks[client_id], acked_after

        client_id, ack, acked_after = asyncio.run(scenario())
        prober.stopping.set()
        prober.join(timeout=15)
        wait_all_disconnected(game.pk)
    finally:
        prober.stopping.set()
        caddy.stop()

    asked = sum(prober.statuses.values())
    print(
        f"killed node: {asked} requests through the proxy, statuses "
        f"{sorted(prober.statuses.items())}; the held move acked "
        f"{acked_after:.1f} s after the kill"
    )
    assert asked > 20
    # One request at a time, so at most one was inside the killed process as
    # it died: a GET the proxy sends again to the other; a form it does not
    # (it may have been taken), so that one is answered 502.
    errors = prober.errors()
    assert set(errors) <= {("POST /i18n/setlang/", 502)}, errors
    assert sum(errors.values()) <= 1, errors
    assert prober.statuses.get(("POST /i18n/setlang/", 302)), "the form was taken"
    assert acked_after < LEASE_SECONDS + 2 * HEARTBEAT_SECONDS + 1
    rows = event_rows(game.pk)
    assert [client for _, _, client, _ in rows].count(client_id) == 1
    assert (
        dict((client, version) for version, _, client, _ in rows)[client_id]
        == (ack["version"])
    )
    assert books([game.pk]) == NOTHING_AMISS


async def play_on(proxy: str, game_id: int, session_key: str, version: int):
    """Play the seat until ``version``, opening the socket again through the
    proxy whenever the server closes it; the acks, and the close codes."""
    acks, codes = {}, []
    for _ in range(5):
        try:
            async with TableClient(proxy, game_id, session_key) as client:
                try:
                    await client.play_until(at_version(version), timeout=60)
                    acks.update(client.acks)
                    return acks, codes
                finally:
                    acks.update(client.acks)
        except ConnectionClosed as closed:
            codes.append(closed.rcvd.code if closed.rcvd else None)
    raise AssertionError(f"closed five times: {codes}")


@pytest.mark.timeout(240)
@pytest.mark.django_db(transaction=True)
def test_a_home_back_from_the_dead_gets_its_games_back(
    own_servers, people, live_env, log_dir
):
    """A game's home is killed and its game goes on at the next process; the
    home is started again: within a few heartbeats the game is passed back
    to it between two moves, the players' sockets are closed with 4012 and
    open again through the proxy at the home, and play goes on there with
    every acknowledged move kept once."""
    ports = [free_port(), free_port()]
    nodes = [f"127.0.0.1:{port}" for port in ports]
    envs, servers = {}, {}
    for number, (port, node) in enumerate(zip(ports, nodes, strict=True), start=1):
        envs[node] = node_env(nodes, node)
        servers[node] = own_servers(f"back-{number}", port=port, env=envs[node])
    proxy_port = free_port()
    caddy = start_caddy("caddy-back", proxy_port, nodes, log_dir)
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
        keys = (alice.session_key, bob.session_key)

        async def both(version):
            played = await asyncio.gather(
                *(play_on(proxy, game.pk, key, version) for key in keys)
            )
            return {k: v for acks, _ in played for k, v in acks.items()}, [
                code for _, codes in played for code in codes
            ]

        acked, _ = asyncio.run(both(10))
        kill(servers[first][0])
        more, _ = asyncio.run(both(16))
        acked.update(more)
        assert health(servers[survivor][1])["owned"] == 1
        port = int(first.rsplit(":", 1)[1])
        again = []

        async def home_again():
            """The players sit at the table while the home starts again."""
            async with (
                TableClient(proxy, game.pk, alice.session_key) as a,
                TableClient(proxy, game.pk, bob.session_key) as b,
            ):
                back_at = time.monotonic()
                # Started from this thread: a server dies with the thread
                # that started it (tests.processes).
                again.append(
                    start_server(
                        "back-again", {**live_env, **envs[first]}, log_dir, port
                    )
                )
                await asyncio.wait_for(
                    asyncio.gather(a.ws.wait_closed(), b.ws.wait_closed()), 20
                )
                closed_after = time.monotonic() - back_at
                return again[0][1], closed_after, [a.ws.close_code, b.ws.close_code]

        first_url, handed_after, codes = asyncio.run(home_again())
        assert codes == [4012, 4012]
        assert health(first_url)["owned"] == 1
        assert health(servers[survivor][1])["owned"] == 0
        more, _ = asyncio.run(both(24))
        acked.update(more)
        # At its home again, the game's sockets reach its owner: no hop. A
        # busy machine can make the home miss Caddy's one-second health
        # check, and Caddy then rightly sends a round to the other process,
        # which hops: so a few rounds, and one of them must make no hop.
        # (Before the survivor waited to see the home alive for a while, it
        # handed the game back before Caddy had seen the home up: every
        # round hopped, in CI and at load 11.)
        hops = []
        for version in (28, 32, 36):
            wait_all_disconnected(game.pk)
            sent_before = health(first_url)["sent"]
            more, _ = asyncio.run(both(version))
            acked.update(more)
            hops.append(health(first_url)["sent"] - sent_before)
            if hops[-1] == 0:
                break
        assert 0 in hops, hops
    finally:
        caddy.stop()
        for process, _ in again:
            process.stop()

    print(
        f"handed back {handed_after:.1f} s after its home was started; "
        f"hops by round after {hops}"
    )
    rows = event_rows(game.pk)
    assert [version for version, *_ in rows] == list(range(1, len(rows) + 1))
    by_client = {client: version for version, _, client, _ in rows if client}
    for client_id, ack in acked.items():
        assert by_client[client_id] == ack["version"]
    assert books([game.pk]) == NOTHING_AMISS
