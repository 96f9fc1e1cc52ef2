"""Driving live games in tests: tables, seats, moves, and browser sockets.

Everything here goes through ``games.services`` and ``games.selectors``,
a game's owner run in the test's thread (``games.live.local``: its moves as
a player's socket sends them, the timer's at the clock the test says), or
the real ASGI application, the way pages, consumers and timers do; nothing
writes a model directly. Bots are autopilots unless asked otherwise: they
move at once and always the same way.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from demo.games import person_move
from games import selectors, services
from games.live.local import Due, owner_of
from games.models import Game, GameEvent, Seat
from joker import apply, new_game
from joker.actions import action_from_json
from joker.record import record_json, replay
from tests.factories import UserFactory
from tests.following import take

# Every card code that can be written: 6-A in four suits and both jokers.
CARD_CODE = re.compile(r"\b(?:[6-9TJQKA][SHDC]|X[12])\b")


def start_table(profile, options=None, *, people, bot="autopilot", **kwargs):
    """A table with ``people`` signed-up players in the first seats and bots
    in the rest; returns the table and its players by seat."""
    users = [UserFactory() for _ in range(people)]
    table = services.table_create(
        user=users[0], profile=profile, options=options, **kwargs
    )
    for number, user in enumerate(users[1:], start=1):
        services.seat_take(
            table_id=table.pk, user=user, number=number, invite_code=table.invite_code
        )
    for number in range(people, table.players):
        services.seat_add_bot(table_id=table.pk, user=users[0], number=number, bot=bot)
    return table, users


def start_game(profile, options=None, *, people, **kwargs) -> Game:
    """A game under way: ``start_table`` with every seat filled."""
    table, _ = start_table(profile, options, people=people, **kwargs)
    return Game.objects.get(table=table)


def seat_user(game: Game, number: int):
    return Seat.objects.get(table_id=game.table_id, number=number).user


def snapshot(game: Game, seat: int | None) -> dict:
    """What ``seat`` (None: a spectator) is sent now."""
    game, seats = selectors.game_for_broadcast(game.pk)
    return selectors.snapshot(game, seats, seat)


def first_legal(view: dict) -> dict:
    return view["legal"][0]


def seat_of(game_id: int, user) -> int | None:
    """``user``'s seat in the game; None (a spectator) when they have none."""
    seat = Seat.objects.filter(table__game__pk=game_id, user=user).first()
    return None if seat is None else seat.number


def act(*, game_id: int, user, action: dict, expected_version: int, client_id: str):
    """``user``'s action sent to the game's owner as their socket sends it;
    the owner's answer, or its refusal raised."""
    with owner_of(game_id, client_id=client_id) as table:
        return table.act(seat_of(game_id, user), action, expected_version, client_id)


def resign(*, game_id: int, user) -> dict:
    with owner_of(game_id) as table:
        return table.resign(seat_of(game_id, user))


def abort(*, game_id: int, user) -> dict:
    with owner_of(game_id) as table:
        return table.abort(seat_of(game_id, user))


def advance_overdue(*, game_id: int, version: int, now=None) -> bool:
    """The move the owner's alarm makes at ``now`` for the turn due at
    ``version``; False when the game moved on, is over, or the deadline is
    still ahead."""
    with owner_of(game_id) as table:
        if table.live.version != version:
            return False
        return table.move_due(now)


def move(game: Game) -> None:
    """One step: the timer's move for a bot or a seat that has left, else the
    player's first legal choice."""
    seat = Seat.objects.get(table_id=game.table_id, number=game.engine_state().turn)
    if seat.played_by_bot:
        moved = advance_overdue(
            game_id=game.pk, version=game.version, now=game.deadline
        )
        assert moved
        return
    act(
        game_id=game.pk,
        user=seat.user,
        action=first_legal(snapshot(game, seat.number)["view"]),
        expected_version=game.version,
        client_id=f"v{game.version}",
    )


def play_until(game: Game, predicate, *, limit: int = 5000) -> Game:
    """Move until ``predicate(game)`` holds; returns the game reloaded."""
    for _ in range(limit):
        game.refresh_from_db()
        if predicate(game):
            return game
        assert game.status == Game.Status.PLAYING, "the game ended first"
        move(game)
    raise AssertionError(f"no such moment within {limit} steps")


def play_out(game_id: int, absent: frozenset = frozenset()) -> Game:
    """Play a game to its end in this process, as its owner would: people
    with the autopilot's choice as their own client sends it, bots (and the
    ``absent`` users, whose timers run out) as the timers would move them.
    Each move is made on the game's own clock, however long the games played
    before this one took. For tests about what follows a game; tests of the
    moves themselves go through ``move``. Returns the game reloaded."""

    def decide(live):
        seat = live.to_move
        if seat.played_by_bot or seat.user_id in absent:
            return Due(live.deadline + timedelta(seconds=1))
        return person_move(live, live.deadline - timedelta(seconds=1))

    with owner_of(game_id) as table:
        table.play_out(decide)
    return Game.objects.get(pk=game_id)


def time_out_to_the_end(game_id: int) -> Game:
    """Play the game to its end, every move made by the timer at its
    deadline; returns the game reloaded."""
    with owner_of(game_id) as table:
        table.play_out(lambda live: Due(live.deadline))
    return Game.objects.get(pk=game_id)


def is_over(game: Game) -> bool:
    return game.status != Game.Status.PLAYING


def frozen(game: Game) -> tuple:
    """Everything a refused request must leave as it was."""
    game.refresh_from_db()
    return (
        game.state,
        game.version,
        game.status,
        game.deadline,
        GameEvent.objects.filter(game=game).count(),
    )


def assert_replays(game: Game) -> None:
    """The game's record replays in the engine to the same result."""
    record = record_json(
        game.table.rules, game.first_dealer, selectors.game_history(game)
    )
    state = replay(record).state
    assert state.is_over
    assert list(state.totals) == game.result["totals"]
    assert list(state.places) == game.result["places"]
    assert list(state.left) == game.result["left"]


def states_by_version(game: Game) -> dict:
    """The engine state after every version of the game, rebuilt from its
    events and deal records, with the cards of the current deal that are
    public by then (turned, face up, or played): {version: (state, cards)}."""
    rules = game.table.rules
    deals = {
        record.index: selectors.deal_of(record) for record in game.deal_records.all()
    }
    state = new_game(rules, game.first_dealer)
    public: frozenset = frozenset()
    out = {}
    for event in game.events.order_by("version"):
        if event.kind == GameEvent.Kind.DEAL:
            deal = deals[event.action["deal"]]
            state = apply(state, deal)
            ups = {up for own in deal.columns for _, up in own}
            public = frozenset(ups | ({deal.turned} if deal.turned else set()))
        elif event.kind == GameEvent.Kind.ACTION:
            state = apply(state, action_from_json(event.action))
            if "card" in event.action:
                public |= {event.action["card"]}
        out[event.version] = (state, public)
    return out


# WebSocket clients


class Socket:
    """A browser's connection to a game, keeping every frame it receives."""

    def __init__(self, comm: WebsocketCommunicator):
        self.comm = comm
        self.frames: list[str] = []
        self.connected = False
        self.close_code = None
        self.latest: dict | None = None  # the snapshot the syncs and updates make
        self.closed = False

    async def send(self, message: dict) -> None:
        await self.comm.send_json_to(message)

    async def receive(self, timeout: float = 5) -> dict:
        text = await self.comm.receive_from(timeout)
        self.frames.append(text)
        frame = json.loads(text)
        if frame.get("type") in ("sync", "update"):
            self.latest = take(self.latest, frame)
        return frame

    async def receive_until(self, predicate, timeout: float = 5) -> dict:
        """Receive (and keep) frames up to the first one ``predicate`` accepts."""
        while True:
            frame = await self.receive(timeout)
            if predicate(frame):
                return frame

    async def receive_each(self, *predicates, timeout: float = 5) -> list[dict]:
        """Receive (and keep) frames until each predicate has accepted one,
        in whatever order they come; returns those frames, in the order of
        the predicates."""
        found: dict = {}
        while len(found) < len(predicates):
            frame = await self.receive(timeout)
            for n, accepts in enumerate(predicates):
                if n not in found and accepts(frame):
                    found[n] = frame
        return [found[n] for n in range(len(predicates))]

    async def refusal(self, timeout: float = 5) -> int:
        """The close code of a connection refused as docs/protocol.md says:
        the handshake accepted, then the socket closed before any frame."""
        assert self.connected, f"refused at the handshake ({self.close_code})"
        message = await self.comm.receive_output(timeout)
        assert message["type"] == "websocket.close", message
        self.close_code = message["code"]
        return self.close_code

    async def nothing_more(self) -> bool:
        return await self.comm.receive_nothing(timeout=0.2)

    async def close(self) -> None:
        # A refused connection's application still listens on its channel
        # until the client's close: always send it, or its channel receive
        # outlives the test's event loop.
        if not self.closed:
            self.closed, self.connected = True, False
            await self.comm.disconnect(timeout=5)


def session_cookie(user) -> bytes:
    """The cookie header of a browser in which ``user`` has signed in."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


# What a page of the site sends with a handshake (config.origins): the
# Host it was loaded from and its origin.
SITE_HEADERS = [(b"host", b"localhost"), (b"origin", b"http://localhost")]


async def open_socket(game_id, user=None, *, origin="http://localhost") -> Socket:
    """Connect as ``user`` (signed in with a session cookie; None: anonymous)
    from a page of ``origin``."""
    headers = [(b"host", b"localhost"), (b"origin", origin.encode())]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    socket = Socket(
        WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    )
    socket.connected, socket.close_code = await socket.comm.connect(timeout=5)
    return socket


def of_type(kind: str):
    return lambda frame: frame["type"] == kind


def all_connected(frame: dict) -> bool:
    return frame["type"] == "presence" and all(s["connected"] for s in frame["seats"])


def action_message(version: int, action, client_id: str = "a1") -> dict:
    return {"type": "action", "id": client_id, "version": version, "action": action}
