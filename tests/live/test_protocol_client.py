"""A client written from docs/protocol.md alone plays whole games of every
profile against the real servers.

Nothing in the client below comes from the project's code: it keeps its
view from the ``sync`` it is sent and the ``update``s after it, applying
each event as the document's table says and then the update's
``position``; it asks for a ``sync`` when an update skips a version; it acts
with an element of ``view.legal`` as it is. Now and then, on its own turn
(when nobody else can move), it asks for a ``sync`` and its view must be
exactly the one the server sends.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect

from games import services
from games.models import Game

from .support import wait_all_disconnected

# Whole games: Japanese Joker to 11, and the 4-player profiles.
GAMES = [
    ("japanese", {"target": 11}),
    ("georgian-club", {"schedule": "nines", "pairs": True}),
    ("georgian-tvaladze", {}),
    ("live-games", {}),
]
# A seat compares its kept view with a fresh sync every so many of its turns.
CHECK_EVERY = 7


def follow(view: dict, update: dict) -> dict:
    """The document's table, event by event, then the position."""
    view = json.loads(json.dumps(view))
    for step in update["events"]:
        for event in step["events"]:
            kind = event["type"]
            rest = {k: v for k, v in event.items() if k != "type"}
            if kind == "deal":
                players = view["players"]
                view.update(
                    deal=event["deal"],
                    dealer=event["dealer"],
                    cards=event["cards"],
                    turned=event["turned"],
                    trump=event["trump"],
                    bids=[] if view["profile"] == "japanese" else [None] * players,
                    tricks=[0] * players,
                    trick=[],
                    trick_number=0,
                )
            elif kind == "trump":
                view["trump"] = event["trump"]
            elif kind == "bid":
                view["bids"][event["seat"]] = event["bid"]
            elif kind == "card":
                view["trick"].append(rest)
            elif kind == "trick":
                view["trick"] = []
                view["tricks"][event["winner"]] += 1
                view["trick_number"] += 1
            elif kind == "deal_over":
                view["deals"].append(event["result"])
                view.update(
                    deal=event["deal"] + 1,
                    trump=None,
                    turned=None,
                    bids=[],
                    trick_number=0,
                )
            elif kind == "pulka_over":
                view["pulkas"].append(rest)
            elif kind == "game_over":
                view["places"] = event["places"]
    view.pop("legal", None)
    view.pop("next_deal", None)
    view.update(update["position"])
    if view["phase"] in ("deal", "over"):
        view.update(dealer=None, cards=None, tricks=[], trick=[])
    return view


class Player:
    def __init__(self, ws):
        self.ws = ws
        self.view = None
        self.version = None
        self.status = None
        self.you = None
        self.pending = None
        self.turns = 0
        self.checked = 0
        self.errors = []
        self.protocol = None  # as the first sync says (none: 1)
        self.acks = 0  # answers to our moves in frames of their own
        self.folded = 0  # answers riding on our update (protocol 2)

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))

    async def receive(self) -> dict:
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 20))
            kind = message["type"]
            if kind == "sync":
                self.view, self.version = message["view"], message["version"]
                self.status, self.you = message["status"], message["you"]
                if self.protocol is None:
                    self.protocol = message.get("protocol", 1)
            elif kind == "update" and message.get("ack") is not None:
                assert message["ack"] == self.pending, "the answer to our move"
                self.pending = None
                self.folded += 1
            if kind == "update" and message["version"] > self.version:
                if message["events"][0]["version"] != self.version + 1:
                    await self.send({"type": "sync", "version": self.version})
                    continue
                self.view = follow(self.view, message)
                self.version, self.status = message["version"], message["status"]
            elif kind == "ack":
                self.pending = None
                self.acks += 1
            elif kind == "error":
                self.errors.append(message)
                self.pending = None
            return message

    def my_turn(self) -> bool:
        return (
            self.status == "playing"
            and self.pending is None
            and self.view["turn"] == self.you
            and bool(self.view.get("legal"))
        )

    async def check_against_a_sync(self) -> None:
        kept = self.view
        await self.send({"type": "sync", "version": self.version})
        while (await self.receive())["type"] != "sync":
            pass
        assert self.view == kept, f"seat {self.you} at version {self.version}"
        self.checked += 1

    async def play(self) -> None:
        while self.view is None:
            await self.receive()
        while self.status == "playing":
            if self.my_turn():
                self.turns += 1
                if self.turns % CHECK_EVERY == 0:
                    await self.check_against_a_sync()
                self.pending = f"m{self.version}"
                await self.send(
                    {
                        "type": "action",
                        "id": self.pending,
                        "version": self.version,
                        "action": self.view["legal"][0],
                    }
                )
            await self.receive()
        while self.pending is not None:  # the answer to the game's last move
            await self.receive()


async def play_a_game(base: str, game_id: int, cookies: list[str], query: str = ""):
    url = f"{base.replace('http', 'ws', 1)}/ws/games/{game_id}/{query}"
    sockets = [
        await connect(url, origin=base, additional_headers={"Cookie": f"sessionid={c}"})
        for c in cookies
    ]
    players = [Player(ws) for ws in sockets]
    try:
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 240)
    finally:
        for ws in sockets:
            await ws.close()
    return players


def new_game(people, profile: str, options: dict):
    count = 2 if profile == "japanese" else 4
    seated = people(count)
    table = services.table_create(
        user=seated[0].user, profile=profile, options=options, turn_seconds=120
    )
    for number, person in enumerate(seated[1:], start=1):
        services.seat_take(table_id=table.pk, user=person.user, number=number)
    return Game.objects.get(table=table), [p.session_key for p in seated]


@pytest.mark.timeout(600)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("profile", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_client_written_from_the_document_plays_a_whole_game(
    servers, people, profile, options
):
    game, cookies = new_game(people, profile, options)
    players = asyncio.run(play_a_game(servers[0], game.pk, cookies))
    wait_all_disconnected(game.pk)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    for player in players:
        assert player.status == "finished" and player.version == game.version
        assert not player.errors
        assert player.checked >= 1
    assert sum(player.checked for player in players) >= 3
    for player in players:
        assert player.protocol == 1 and player.folded == 0
        assert player.acks == player.turns


@pytest.mark.timeout(600)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("profile", "options"), GAMES[:2], ids=[g[0] for g in GAMES[:2]]
)
def test_protocol_2_answers_every_move_on_the_movers_update(
    servers, people, profile, options
):
    """The same client asking for protocol 2 (``?protocol=2``): every one of
    its moves is answered by its own update (one frame), none by an ack of
    its own, and the game plays to its end as in protocol 1."""
    game, cookies = new_game(people, profile, options)
    players = asyncio.run(play_a_game(servers[0], game.pk, cookies, "?protocol=2"))
    wait_all_disconnected(game.pk)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    for player in players:
        assert player.protocol == 2 and not player.errors
        assert player.status == "finished" and player.version == game.version
        # The move that ends the game is answered apart: its news is a sync.
        assert player.folded + player.acks == player.turns
        assert player.acks <= 1
    assert sum(player.acks for player in players) == 1
