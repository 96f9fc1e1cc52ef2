"""Every message sent to a user's group reaches every kind of socket that
joins it, and each handles it: a table's (playing, or waiting for its
players), the lobby's, quick play's, a tournament's and the personal one.
A socket without a handler raises in Channels and drops without a close
frame (a mute in the chat once took the player's personal and quick-play
sockets down).

The messages are those ``accounts.sockets.USER_MESSAGES`` declares, the one
place they are named, and ``tell_user`` refuses any other."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from channels.consumer import get_handler_name
from django.conf import settings
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from accounts.sockets import (
    CLOSE_SIGNED_OUT,
    SESSION_ENDED,
    SIGNED_OUT,
    USER_MESSAGES,
    tell_user,
)
from games import services
from games.consumers.sockets import UserSocketMixin
from tests.tournaments.support import make_tournament

from .test_limits import a_game

pytestmark = [pytest.mark.timeout(90), pytest.mark.django_db(transaction=True)]

BASE_DIR = Path(settings.BASE_DIR)

# One message of each declared type, as its sender sends it.
EXAMPLES = {
    SESSION_ENDED: {"code": CLOSE_SIGNED_OUT, "reason": SIGNED_OUT},
    "chat.hidden": {},
}


def user_sockets() -> list[type]:
    """Every socket class that joins a user's group: those built on the
    shared mixin (``config.asgi``, imported above, imports every route)."""
    found, todo = [], [UserSocketMixin]
    while todo:
        for kind in todo.pop().__subclasses__():
            found.append(kind)
            todo.append(kind)
    return found


def test_every_declared_message_has_an_example_here():
    assert set(EXAMPLES) == set(USER_MESSAGES)


def test_every_socket_that_joins_a_users_group_handles_every_declared_message():
    kinds = user_sockets()
    served = {"TableSocket", "WaitingTableSocket", "LobbySocket", "QuickPlayConsumer"}
    served |= {"TournamentConsumer", "MeConsumer"}
    assert served <= {kind.__name__ for kind in kinds}
    missing = [
        (kind.__name__, message)
        for kind in kinds
        for message in USER_MESSAGES
        if not callable(getattr(kind, get_handler_name({"type": message}), None))
    ]
    assert not missing


def test_an_undeclared_message_is_not_sent_to_a_user():
    with pytest.raises(ValueError, match="USER_MESSAGES"):
        tell_user(1, {"type": "chat.something_new"})


def test_nothing_else_sends_to_a_users_group():
    # Only accounts.sockets sends to these groups (through tell_user, which
    # checks the type) and only the shared mixin joins them: no other module
    # takes their names from it or spells them out.
    allowed = {Path("accounts/sockets.py"), Path("games/consumers/sockets.py")}
    naming = re.compile(
        r"accounts\.sockets import[^\n]*\b(user_group|session_group)\b"
        r"|sockets\.(user_group|session_group)\b"
        r"|[\"']user-\{|[\"']session-\{"
    )
    offenders = [
        str(source.relative_to(BASE_DIR))
        for app in settings.INSTALLED_APPS + ["config", "common"]
        if (BASE_DIR / app).is_dir()
        for source in (BASE_DIR / app).rglob("*.py")
        if source.relative_to(BASE_DIR) not in allowed
        and naming.search(source.read_text())
    ]
    assert not offenders


async def opened(url: str, origin: str, session_key: str):
    socket = await connect(
        url,
        origin=origin,
        additional_headers={"Cookie": f"sessionid={session_key}"},
        proxy=None,
        open_timeout=10,
    )
    return socket


async def answers_a_ping(socket) -> bool:
    """Whether the socket answers a ping (a pong, or quick play's status)."""
    try:
        await socket.send(json.dumps({"type": "ping"}))
        while True:
            frame = json.loads(await asyncio.wait_for(socket.recv(), 20))
            if frame["type"] in ("pong", "status"):
                return True
    except ConnectionClosed:
        return False


def test_each_message_to_a_users_group_is_handled_by_each_socket(servers, people):
    alice, bob = people(2)
    game = a_game(alice, bob)
    waiting = services.table_create(user=bob.user, profile="japanese")
    tournament = make_tournament()
    base = servers[0]
    ws = base.replace("http", "ws", 1)
    paths = {
        "table": f"/ws/games/{game.pk}/",
        "waiting table": f"/ws/tables/{waiting.pk}/",
        "lobby": "/ws/lobby/",
        "quick play": "/ws/quickplay/",
        "tournament": f"/ws/tournaments/{tournament.pk}/",
        "personal": "/ws/me/",
    }

    async def send_each_to_each():
        sockets = {
            kind: await opened(f"{ws}{path}", base, alice.session_key)
            for kind, path in paths.items()
        }
        dropped = {}
        closing = {}
        try:
            for kind, socket in sockets.items():
                assert await answers_a_ping(socket), f"{kind} did not open"
            # The messages that leave a socket open first, then the close.
            ordered = sorted(USER_MESSAGES, key=lambda kind: kind == SESSION_ENDED)
            for message_type in ordered:
                message = {"type": message_type, **EXAMPLES[message_type]}
                await asyncio.to_thread(tell_user, alice.user.pk, message)
                if message_type == SESSION_ENDED:
                    for kind, socket in sockets.items():
                        await socket.wait_closed()
                        closing[kind] = socket.close_code
                    continue
                for kind, socket in sockets.items():
                    if not await answers_a_ping(socket):
                        dropped[kind, message_type] = socket.close_code
        finally:
            for socket in sockets.values():
                await socket.close()
        return dropped, closing

    dropped, closing = asyncio.run(send_each_to_each())
    assert not dropped
    assert closing == dict.fromkeys(paths, CLOSE_SIGNED_OUT)
