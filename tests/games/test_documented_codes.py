"""docs/protocol.md, walked: every close code and error code it lists is
produced by a socket of the real application (in this process: the ASGI
stack of config.asgi, its consumers and a game owner), and every code the
sockets produce here is listed. What only a real server produces, a frame
over the limit (1009) and a handshake refused for its Origin, is walked by
tests/live/test_documented_codes.py."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.bans import user_ban
from chat.models import ChatMute
from config.asgi import application
from games import services
from games.live.hall import hall, stop_hall
from games.live.leases import owner_key
from games.models import Game
from games.services import table_create_seated
from games.services.rematch import rematch_agree
from social.services import block_create
from tests.factories import StaffUserFactory, UserFactory
from tests.games.helpers import (
    SITE_HEADERS,
    Socket,
    action_message,
    of_type,
    resign,
    start_table,
)
from tests.protocol_document import GAME_SOCKET, promises
from tests.ranked.helpers import ranked_game, users_by_seat
from tests.tournaments.support import make_tournament

pytestmark = pytest.mark.django_db(transaction=True)

db = database_sync_to_async
DOC = promises()
# The socket of a table waiting for its players.
WAITING_SOCKET = "/ws/tables/<id>/"
# Produced only on a real server: 1009 by tests/live/test_documented_codes.py,
# 1012 (a server shutting down) by the restarts of tests/faults.
ON_THE_WIRE = {1009, 1012}
# Refused at connection only by a real server whose PostgreSQL refuses its
# connections: 4503, by tests/outage/test_sockets_open_while_the_database_refuses.py
# on every socket.
REFUSED_ON_THE_WIRE = {4503}


# Sockets and the things they need


OPENED: list[Socket] = []


async def open_at(path: str, cookie: str | None = None) -> Socket:
    headers = list(SITE_HEADERS)
    if cookie:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    socket = Socket(WebsocketCommunicator(application, path, headers=headers))
    OPENED.append(socket)
    socket.connected, socket.close_code = await socket.comm.connect(timeout=5)
    return socket


@pytest_asyncio.fixture
async def sockets_closed():
    """Every socket a test opened is closed at its end, and the test's game
    owners stopped: neither may outlive the test's event loop."""
    yield
    while OPENED:
        await OPENED.pop().close()
    await stop_hall()


async def closed_with(socket: Socket, timeout: float = 5) -> int:
    """The code of the close the socket gets, skipping frames before it."""
    while True:
        message = await socket.comm.receive_output(timeout)
        if message["type"] == "websocket.close":
            socket.close_code = message["code"]
            return message["code"]


async def error_after(socket: Socket, text: str) -> str:
    await socket.comm.send_to(text_data=text)
    return (await socket.receive_until(of_type("error")))["code"]


@db
def browser(user=None) -> Client:
    """A browser signed in as ``user`` (a new player if None)."""
    client = Client()
    client.force_login(user or UserFactory())
    return client


def cookie_of(client: Client) -> str:
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@db
def a_match(**kwargs):
    """A Japanese match of two people: the game, the declarer (to move) and
    the other player."""
    table, users = start_table("japanese", {"target": 11}, people=2, **kwargs)
    game = Game.objects.get(table=table)
    declarer = game.engine_state().turn
    return game, users[declarer], users[1 - declarer]


async def synced(game: Game, user=None) -> Socket:
    """A socket of ``user`` (a new player: a spectator) at ``game``'s table,
    past its first sync."""
    socket = await open_at(f"/ws/games/{game.pk}/", cookie_of(await browser(user)))
    await socket.receive_until(of_type("sync"))
    return socket


async def at_table(**kwargs) -> tuple[Game, Socket]:
    game, declarer, _ = await a_match(**kwargs)
    return game, await synced(game, declarer)


@db
def existing(template: str) -> str:
    """``template``'s address with something real behind it."""
    if "<id>" not in template:
        return template
    if template == GAME_SOCKET:
        table, _ = start_table("japanese", {"target": 11}, people=2)
        return template.replace("<id>", str(Game.objects.get(table=table).pk))
    if template == WAITING_SOCKET:
        return template.replace("<id>", str(waiting_table(UserFactory()).pk))
    return template.replace("<id>", str(make_tournament().pk))


def waiting_table(*players, is_private: bool = False):
    """A table of four waiting for players, ``players`` in its first seats."""
    table = services.table_create(
        user=players[0],
        profile="georgian-club",
        options={"schedule": "nines"},
        is_private=is_private,
    )
    for number, player in enumerate(players[1:], start=1):
        services.seat_take(
            table_id=table.pk, user=player, number=number, invite_code=table.invite_code
        )
    return table


def missing(template: str) -> str:
    return template.replace("<id>", "987654321")


async def flood(socket: Socket, settings_) -> int:
    """Send past the message rate (1 a second, bursts of 3) until closed."""
    settings_.PULKA_SOCKET_RATE, settings_.PULKA_SOCKET_BURST = 1, 3
    for _ in range(10):
        await socket.comm.send_to(text_data='{"type": "ping"}')
    return await closed_with(socket)


# Refusals at connection


async def anonymous(template, settings_) -> int:
    socket = await open_at(await existing(template))
    return await socket.refusal()


async def private_table(template, settings_) -> int:
    if template == WAITING_SOCKET:
        table = await db(waiting_table)(await db(UserFactory)(), is_private=True)
        path = template.replace("<id>", str(table.pk))
    else:
        assert template == GAME_SOCKET, "only a table is private"
        game, _, _ = await a_match(is_private=True)
        path = f"/ws/games/{game.pk}/"
    socket = await open_at(path, cookie_of(await browser()))
    return await socket.refusal()


async def nothing_there(template, settings_) -> int:
    socket = await open_at(missing(template), cookie_of(await browser()))
    return await socket.refusal()


async def paused_for_flooding(template, settings_) -> int:
    cookie = cookie_of(await browser())
    flooded = await open_at("/ws/lobby/", cookie)
    assert await flood(flooded, settings_) == 4429
    socket = await open_at(await existing(template), cookie)
    return await socket.refusal()


AT_CONNECTION = {
    4401: anonymous,
    4403: private_table,
    4404: nothing_there,
    4429: paused_for_flooding,
}


# Closes of an open game socket


async def signed_out(settings_) -> int:
    game, declarer, _ = await a_match()
    client = await browser(declarer)
    socket = await open_at(f"/ws/games/{game.pk}/", cookie_of(client))
    await socket.receive_until(of_type("sync"))
    await db(client.post)("/accounts/logout/")
    return await closed_with(socket)


async def banned(settings_) -> int:
    game, declarer, _ = await a_match()
    socket = await synced(game, declarer)
    await db(user_ban)(user=declarer, by=await db(StaffUserFactory)(), reason="x")
    return await closed_with(socket)


async def too_many_sockets(settings_) -> int:
    settings_.PULKA_SOCKETS_PER_USER = 8
    game, declarer, _ = await a_match()
    cookie = cookie_of(await browser(declarer))
    sockets = [await open_at(f"/ws/games/{game.pk}/", cookie) for _ in range(9)]
    return await closed_with(sockets[0])


async def flooding(settings_) -> int:
    _, socket = await at_table()
    return await flood(socket, settings_)


async def silent(settings_) -> int:
    _, socket = await at_table()
    settings_.PULKA_SOCKET_SILENCE_SECONDS = 0
    await (await hall()).heartbeat()  # the check the heartbeat makes
    return await closed_with(socket)


async def owner_replaced(settings_) -> int:
    game, socket = await at_table()
    here = await hall()
    # Another server took the game over: the lease is no longer this one's.
    await here.redis.set(owner_key(game.pk), "hall.elsewhere", px=6_000)
    await here.heartbeat()
    return await closed_with(socket)


LATER = {
    4401: signed_out,
    4403: banned,
    4409: too_many_sockets,
    4429: flooding,
    4408: silent,
    4012: owner_replaced,
}


# Error codes of the game socket


def sent(text: str):
    async def produce(settings_) -> str:
        _, socket = await at_table()
        return await error_after(socket, text)

    return produce


def action(version: int, action_) -> str:
    return json.dumps(action_message(version, action_))


async def rate_limited(settings_, template=GAME_SOCKET) -> str:
    settings_.PULKA_SOCKET_RATE, settings_.PULKA_SOCKET_BURST = 1, 3
    if template == GAME_SOCKET:
        _, socket = await at_table()
    else:
        socket = await open_at(await existing(template), cookie_of(await browser()))
    for _ in range(4):
        await socket.comm.send_to(text_data='{"type": "ping"}')
    return (await socket.receive_until(of_type("error")))["code"]


async def spectating(settings_) -> str:
    game, _, _ = await a_match()
    return await error_after(await synced(game), action(1, {"trump": "H"}))


async def not_my_turn(settings_) -> str:
    game, _, other = await a_match()
    return await error_after(await synced(game, other), action(1, {"trump": "H"}))


async def after_the_end(settings_) -> str:
    _, socket = await at_table()
    await socket.send({"type": "abort", "id": "ab"})
    await socket.receive_until(of_type("ack"))
    return await error_after(socket, '{"type": "resign", "id": "rs"}')


async def late(settings_) -> str:
    settings_.PULKA_ANY_TURN_SECONDS = True
    settings_.PULKA_MOVE_LAG_SECONDS = 0.1
    _, socket = await at_table(turn_seconds=1)
    await socket.receive_until(of_type("update"), timeout=5)  # the timeout move
    return await error_after(socket, action(1, {"trump": "H"}))


async def ratings_busy(settings_) -> str:
    """The move that ends a ranked game meets its players' ratings gone
    each time they are locked (as a concurrent revert of their last games
    would leave them): a trigger in the test database drops every insert of
    a rating, so the service finds none of the rows it creates."""
    game = await db(ranked_game)("japanese")
    first, _ = await db(users_by_seat)(game)
    await db(_ratings_refused)(True)
    try:
        socket = await synced(game, first)
        return await error_after(socket, '{"type": "resign", "id": "rs"}')
    finally:
        await db(_ratings_refused)(False)


def _ratings_refused(refused: bool) -> None:
    with connection.cursor() as cursor:
        if refused:
            cursor.execute(
                "CREATE FUNCTION test_refuse_rating() RETURNS trigger "
                "LANGUAGE plpgsql AS 'BEGIN RETURN NULL; END'"
            )
            cursor.execute(
                "CREATE TRIGGER test_refuse_rating BEFORE INSERT ON ratings_rating "
                "FOR EACH ROW EXECUTE FUNCTION test_refuse_rating()"
            )
        else:
            cursor.execute("DROP FUNCTION IF EXISTS test_refuse_rating() CASCADE")


async def unavailable(settings_) -> str:
    """The database refuses to store the move, as a full disk would: a
    trigger in the test database fails every insert of a game event with
    PostgreSQL's disk_full error. (tests/faults meets it on a real full
    disk.)"""
    _, socket = await at_table()
    await db(_events_refused)(True)
    try:
        return await error_after(socket, action(1, {"trump": "H"}))
    finally:
        await db(_events_refused)(False)


def _events_refused(refused: bool) -> None:
    with connection.cursor() as cursor:
        if refused:
            cursor.execute(
                "CREATE FUNCTION test_refuse_event() RETURNS trigger LANGUAGE plpgsql"
                " AS 'BEGIN RAISE EXCEPTION ''no space'' USING ERRCODE = ''disk_full'';"
                " END'"
            )
            cursor.execute(
                "CREATE TRIGGER test_refuse_event BEFORE INSERT ON games_gameevent"
                " FOR EACH ROW EXECUTE FUNCTION test_refuse_event()"
            )
        else:
            cursor.execute("DROP FUNCTION IF EXISTS test_refuse_event() CASCADE")


def chat(**fields) -> str:
    return json.dumps({"type": "chat", "id": "c1", **fields})


def chat_refusal(prepare=None, message: str | None = None):
    """The error a chat message gets at the table (from the declarer), at
    a table waiting for players (from a seated one) or in the lobby (from
    a new player), after ``prepare(settings_, user, other)``."""

    async def produce(settings_, template=GAME_SOCKET) -> str:
        if template == GAME_SOCKET:
            game, user, other = await a_match()
            path = f"/ws/games/{game.pk}/"
        elif template == WAITING_SOCKET:
            user, other = await db(UserFactory)(), await db(UserFactory)()
            table = await db(waiting_table)(user, other)
            path = template.replace("<id>", str(table.pk))
        else:
            path, user, other = template, await db(UserFactory)(), None
        if prepare is not None:
            await db(prepare)(settings_, user, other)
        socket = await open_at(path, cookie_of(await browser(user)))
        return await error_after(socket, message or chat(text="hi"))

    return produce


def _flooded(settings_, user, other):
    settings_.PULKA_CHAT_MESSAGES = 0


def _muted(settings_, user, other):
    until = timezone.now() + timedelta(hours=1)
    ChatMute.objects.create(user=user, until=until, created_at=timezone.now())


def _blocked(settings_, user, other):
    block_create(blocker_id=other.pk, blocked_id=user.pk)


def _blocker(settings_, user, other):
    block_create(blocker_id=user.pk, blocked_id=other.pk)


CHAT_ERRORS = {
    "chat_empty": chat_refusal(message=chat(text=" ")),
    "chat_too_long": chat_refusal(message=chat(text="x" * 301)),
    "unknown_phrase": chat_refusal(message=chat(phrase="gg_ez")),
    "chat_flood": chat_refusal(_flooded),
    "muted": chat_refusal(_muted),
    "not_found": chat_refusal(
        message=json.dumps({"type": "chat_report", "id": "r", "message": 987654})
    ),
}
# The rematch of a finished game (docs/protocol.md, "Rematch")


async def a_finished_match():
    """A Japanese match its declarer resigned: the game and both players."""
    game, declarer, other = await a_match()
    await db(resign)(game_id=game.pk, user=declarer)
    return game, declarer, other


@db
def a_finished_tournament_match():
    users = [UserFactory(), UserFactory()]
    table = table_create_seated(
        profile="japanese",
        options={"target": 11},
        turn_seconds=30,
        players=users,
        created_by=users[0],
    )
    game = Game.objects.get(table=table)
    resign(game_id=game.pk, user=users[0])
    return game, users[1]


async def rematch_error(game, user, *messages: str) -> str:
    socket = await synced(game, user)
    for message in messages[:-1]:
        await socket.comm.send_to(text_data=message)
        await socket.receive_until(of_type("rematch"))
    return await error_after(socket, messages[-1])


REMATCH = '{"type": "rematch"}'


async def rematch_of_a_game_being_played(settings_) -> str:
    game, declarer, _ = await a_match()
    return await rematch_error(game, declarer, REMATCH)


async def rematch_by_a_spectator(settings_) -> str:
    game, _, _ = await a_finished_match()
    return await rematch_error(game, None, REMATCH)


async def rematch_of_a_tournament_game(settings_) -> str:
    game, user = await a_finished_tournament_match()
    return await rematch_error(game, user, REMATCH)


async def rematch_twice(settings_) -> str:
    game, declarer, _ = await a_finished_match()
    return await rematch_error(game, declarer, REMATCH, REMATCH)


async def rematch_after_it_was_made(settings_) -> str:
    game, declarer, other = await a_finished_match()
    await db(rematch_agree)(game_id=game.pk, user=other)
    return await rematch_error(game, declarer, REMATCH, REMATCH)


async def decline_with_no_offer(settings_) -> str:
    game, declarer, _ = await a_finished_match()
    return await rematch_error(game, declarer, '{"type": "rematch_decline"}')


async def rematch_refused(settings_) -> str:
    game = await db(ranked_game)("japanese")
    first, second = await db(users_by_seat)(game)
    await db(resign)(game_id=game.pk, user=first)
    await db(rematch_agree)(game_id=game.pk, user=first)
    await db(ranked_game)("japanese", users=[second, await db(UserFactory)()])
    return await rematch_error(game, second, REMATCH)


ERRORS = {
    **CHAT_ERRORS,
    "blocked": chat_refusal(_blocked),
    "you_blocked": chat_refusal(_blocker),
    "too_large": sent(json.dumps({"type": "ping", "pad": "x" * 4096})),
    "rate_limited": rate_limited,
    "bad_json": sent("{not json"),
    "bad_message": sent('["ping"]'),
    "unknown_type": sent('{"type": "dance", "id": "d1"}'),
    "bad_action": sent(action(1, ["trump", "H"])),
    "stale_version": sent(action(0, {"trump": "H"})),
    "late": late,
    "not_allowed": spectating,
    "not_playing": after_the_end,
    "wrong_seat": not_my_turn,
    "wrong_action": sent(action(1, {"bid": 1})),
    "illegal": sent(action(1, {"trump": "red"})),
    "bad_record": sent(action(1, {"trump": 5})),
    "ratings_busy": ratings_busy,
    "unavailable": unavailable,
    "game_not_finished": rematch_of_a_game_being_played,
    "not_a_player": rematch_by_a_spectator,
    "tournament_game": rematch_of_a_tournament_game,
    "rematch_agreed": rematch_twice,
    "rematch_made": rematch_after_it_was_made,
    "no_offer": decline_with_no_offer,
    "rematch_refused": rematch_refused,
}


def sent_to_another(text: str):
    """An error produced by ``text`` on a socket of ``template``, signed in."""

    async def produce(settings_, template) -> str:
        socket = await open_at(await existing(template), cookie_of(await browser()))
        return await error_after(socket, text)

    return produce


async def bad_message(settings_, template) -> str:
    if template in ("/ws/me/", WAITING_SOCKET):
        # The personal and the waiting sockets read JSON objects with a type.
        return await sent_to_another('["ping"]')(settings_, template)
    socket = await open_at(template, cookie_of(await browser()))
    # The lobby reads only chat messages: anything else is a ping.
    lobby = template == "/ws/lobby/"
    await socket.comm.send_to(text_data=chat(text=5) if lobby else "{oops")
    return json.loads(await socket.comm.receive_from(5))["code"]


async def not_allowed_to_chat(settings_, template) -> str:
    """An anonymous reader writes in the lobby; at a waiting table, a
    player who has just left the seat writes in the players' room."""
    if template == WAITING_SOCKET:
        user = await db(UserFactory)()
        table = await db(waiting_table)(user, await db(UserFactory)())
        path = template.replace("<id>", str(table.pk))
        socket = await open_at(path, cookie_of(await browser(user)))
        await db(services.seat_leave)(table_id=table.pk, user=user)
        return await error_after(socket, chat(text="hi"))
    assert template == "/ws/lobby/", "only the lobby is open to anonymous readers"
    return await error_after(await open_at(template), chat(text="hi"))


async def chat_unavailable(settings_, template) -> str:
    """The database refuses to store a chat message, as a full disk would."""
    socket = await open_at(await existing(template), cookie_of(await browser()))
    await db(_chat_refused)(True)
    try:
        return await error_after(socket, chat(text="hi"))
    finally:
        await db(_chat_refused)(False)


def _chat_refused(refused: bool) -> None:
    with connection.cursor() as cursor:
        if refused:
            cursor.execute(
                "CREATE FUNCTION test_refuse_chat() RETURNS trigger LANGUAGE plpgsql"
                " AS 'BEGIN RAISE EXCEPTION ''no space'' USING ERRCODE = ''disk_full'';"
                " END'"
            )
            cursor.execute(
                "CREATE TRIGGER test_refuse_chat BEFORE INSERT ON chat_message"
                " FOR EACH ROW EXECUTE FUNCTION test_refuse_chat()"
            )
        else:
            cursor.execute("DROP FUNCTION IF EXISTS test_refuse_chat() CASCADE")


OTHER_ERRORS = {
    "rate_limited": rate_limited,
    "unavailable": chat_unavailable,
    "bad_message": bad_message,
    "not_allowed": not_allowed_to_chat,
    **CHAT_ERRORS,
    "blocked": chat_refusal(_blocked),
    "you_blocked": chat_refusal(_blocker),
    "bad_json": sent_to_another("{oops"),
    "unknown_type": sent_to_another('{"type": "dance"}'),
    "too_large": sent_to_another(json.dumps({"type": "ping", "pad": "x" * 4096})),
}


# The walk


def walk(test):
    """An asynchronous test whose sockets and owners end with it."""
    return pytest.mark.asyncio(pytest.mark.usefixtures("sockets_closed")(test))


@walk
@pytest.mark.parametrize(
    ("template", "code"),
    sorted(
        (t, c)
        for t, (codes, _) in DOC.sockets.items()
        for c in codes - REFUSED_ON_THE_WIRE
    ),
)
async def test_each_refusal_at_connection_is_produced(template, code, settings):
    produce = AT_CONNECTION.get(code)
    assert produce, f"{code} is documented, but nothing here produces it"
    assert await produce(template, settings) == code


@walk
@pytest.mark.parametrize("code", sorted(DOC.later - ON_THE_WIRE))
async def test_each_close_of_an_open_socket_is_produced(code, settings):
    produce = LATER.get(code)
    assert produce, f"{code} is documented, but nothing here produces it"
    assert await produce(settings) == code


@walk
@pytest.mark.parametrize("code", sorted(DOC.errors))
async def test_each_error_code_of_a_game_socket_is_produced(code, settings):
    produce = ERRORS.get(code)
    assert produce, f"{code} is documented, but nothing here produces it"
    assert await produce(settings) == code


OTHER_SOCKETS = {
    t: errors for t, (_, errors) in DOC.sockets.items() if t != GAME_SOCKET
}


@walk
@pytest.mark.parametrize(
    ("template", "code"),
    sorted((t, c) for t, codes in OTHER_SOCKETS.items() for c in codes),
)
async def test_each_error_code_of_the_other_sockets_is_produced(
    template, code, settings
):
    produce = OTHER_ERRORS.get(code)
    assert produce, f"{code} is documented, but nothing here produces it"
    assert await produce(settings, template) == code


def test_every_code_produced_here_is_documented():
    # The game socket's row of The other sockets is the connection table.
    assert DOC.sockets[GAME_SOCKET][0] == DOC.at_connection
    assert set(AT_CONNECTION) | REFUSED_ON_THE_WIRE <= DOC.at_connection
    assert set(LATER) | ON_THE_WIRE <= DOC.later
    assert set(ERRORS) <= DOC.errors
    documented_elsewhere = {c for _, codes in DOC.sockets.values() for c in codes}
    assert set(OTHER_ERRORS) <= DOC.errors | documented_elsewhere
