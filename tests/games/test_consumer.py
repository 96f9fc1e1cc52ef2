"""The live table over real WebSocket connections (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from games.models import Game, GameEvent
from tests.factories import UserFactory
from tests.games.helpers import action_message, all_connected, of_type, start_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async


@db
def new_match(**kwargs):
    """A Japanese match between two people, the declarer first in the list."""
    table, users = start_table("japanese", {"target": 11}, people=2, **kwargs)
    game = Game.objects.get(table=table)
    declarer = game.engine_state().turn
    return game, users[declarer], users[1 - declarer]


@db
def stranger():
    return UserFactory()


@db
def progress(game):
    """What a refused message must leave as it was."""
    game.refresh_from_db()
    return game.version, GameEvent.objects.filter(game=game).count()


async def table_of_three(connect, game, declarer, other):
    """The declarer, the other player and a spectator, connected and synced."""
    first = await connect(game.pk, declarer)
    second = await connect(game.pk, other)
    watcher = await connect(game.pk, await stranger())
    for socket in (first, second):
        await socket.receive_until(all_connected)
    await watcher.receive_until(of_type("sync"))
    return first, second, watcher


# Connecting


async def test_a_seated_player_gets_a_sync_for_its_seat(connect):
    game, declarer, _ = await new_match()
    socket = await connect(game.pk, declarer)
    assert socket.connected
    sync = await socket.receive()
    seat = sync["view"]["turn"]
    assert sync["type"] == "sync" and sync["you"] == seat
    assert (sync["game"], sync["version"], sync["status"]) == (game.pk, 1, "playing")
    assert (sync["since"], sync["events"]) == (None, [])
    # Before trump is named a Japanese player sees three cards.
    assert len(sync["view"]["hand"]) == 3
    assert sync["view"]["legal"] == [
        {"trump": trump} for trump in ("S", "H", "D", "C", "none")
    ]
    assert len(sync["commitments"]) == 1 and "reveal" not in sync
    presence = await socket.receive()
    assert presence["type"] == "presence" and presence["seats"][seat]["connected"]


async def test_a_spectator_gets_no_seat_and_no_hand(connect):
    game, _, _ = await new_match()
    socket = await connect(game.pk, await stranger())
    sync = await socket.receive()
    assert sync["type"] == "sync" and sync["you"] is None
    assert sync["view"]["hand"] == [] and "legal" not in sync["view"]
    assert await socket.nothing_more()


async def test_an_anonymous_visitor_is_refused(connect):
    game, _, _ = await new_match()
    socket = await connect(game.pk)
    # Accepted, then closed with the code (docs/protocol.md), not refused at
    # the handshake, where a browser would see no code at all.
    assert await socket.refusal() == 4401


async def test_a_foreign_origin_is_refused(connect):
    game, declarer, _ = await new_match()
    socket = await connect(game.pk, declarer, origin="https://evil.example")
    assert not socket.connected


async def test_a_private_table_admits_only_its_players(connect):
    game, declarer, _ = await new_match(is_private=True)
    refused = await connect(game.pk, await stranger())
    assert await refused.refusal() == 4403
    seated = await connect(game.pk, declarer)
    assert seated.connected


async def test_no_such_game(connect):
    game, declarer, _ = await new_match()
    socket = await connect(game.pk + 1000, declarer)
    assert await socket.refusal() == 4404


async def test_presence_follows_the_seats_connections(connect):
    game, declarer, other = await new_match()
    seat = 1 - game.engine_state().turn
    first = await connect(game.pk, declarer)
    await first.receive_until(of_type("presence"))
    watcher = await connect(game.pk, await stranger())
    await watcher.receive_until(of_type("sync"))

    second = await connect(game.pk, other)
    for socket in (first, watcher):
        presence = await socket.receive_until(of_type("presence"))
        assert presence["seats"][seat]["connected"]
        assert presence["version"] == 1
    await second.close()
    for socket in (first, watcher):
        presence = await socket.receive_until(of_type("presence"))
        assert not presence["seats"][seat]["connected"]
        assert await socket.nothing_more()


# Playing


async def test_an_action_updates_every_connection_then_acks(connect):
    game, declarer, other = await new_match()
    first, second, watcher = await table_of_three(connect, game, declarer, other)
    await first.send(action_message(1, {"trump": "H"}))

    update, ack = await first.receive(), await first.receive()
    assert update["type"] == "update" and ack == {
        "type": "ack",
        "id": "a1",
        "version": 2,
    }
    seat = first.latest["you"]
    trump = {"type": "trump", "seat": seat, "trump": "H"}
    for socket, you in ((second, 1 - seat), (watcher, None)):
        frame = await socket.receive()
        # The step's events and the audience's position, not a snapshot.
        assert frame["type"] == "update" and "view" not in frame
        assert frame["events"] == [{"version": 2, "events": [trump]}]
        assert "legal" not in frame["position"]
        assert socket.latest["you"] == you and socket.latest["view"]["trump"] == "H"
    assert update["position"]["legal"] and first.latest["view"]["legal"]
    for socket in (first, second, watcher):
        assert await socket.nothing_more()


async def test_the_players_other_tab_gets_the_update_the_mover_got_directly(
    connect,
):
    # Every socket of the seat gets the same update; the mover's answer
    # follows it on the mover's socket alone. A second socket of a seat
    # already present changes nobody's presence.
    game, declarer, other = await new_match()
    first, second, _ = await table_of_three(connect, game, declarer, other)
    tab = await connect(game.pk, declarer)
    sync = await tab.receive_until(of_type("sync"))
    assert all(seat["connected"] for seat in sync["seats"])
    await first.send(action_message(1, {"trump": "H"}))

    mine = [await first.receive(), await first.receive()]
    assert [frame["type"] for frame in mine] == ["update", "ack"]
    copy = await tab.receive()
    assert copy == mine[0]
    for socket in (first, tab):
        assert await socket.nothing_more()


async def test_frames_and_broadcasts_reach_handlers_without_a_connection_sweep(
    connect, monkeypatch
):
    # Channels' own dispatch would queue a close_old_connections on the sync
    # thread before every message; the consumers skip it (DirectDispatchMixin).
    async def no_sweep():
        raise AssertionError("a message waited for a connection sweep")

    monkeypatch.setattr("channels.consumer.aclose_old_connections", no_sweep)
    game, declarer, other = await new_match()
    first, second, _ = await table_of_three(connect, game, declarer, other)
    await first.send(action_message(1, {"trump": "H"}))
    assert (await first.receive())["type"] == "update"
    assert (await first.receive())["type"] == "ack"
    assert (await second.receive())["type"] == "update"


async def test_malformed_messages_get_errors_and_the_socket_stays_open(connect):
    game, declarer, _ = await new_match()
    socket = await connect(game.pk, declarer)
    await socket.receive_until(of_type("presence"))
    before = await progress(game)

    async def error_for(text):
        await socket.comm.send_to(text_data=text)
        frame = await socket.receive()
        assert frame["type"] == "error"
        return frame["code"]

    assert await error_for("{not json") == "bad_json"
    # Nested too deep for the parser: still an error frame, not a crash.
    assert await error_for("[" * 4000) == "bad_json"
    assert await error_for('{"a":' * 600 + "1" + "}" * 600) == "bad_message"
    assert await error_for('["ping"]') == "bad_message"
    assert await error_for('{"type": 7}') == "bad_message"
    assert await error_for('{"type": "dance", "id": "d1"}') == "unknown_type"
    assert await error_for('{"type": "action", "version": 1}') == "bad_message"
    assert await error_for('{"type": "sync", "version": "1"}') == "bad_message"
    padded = json.dumps({"type": "ping", "pad": "x" * 4096})
    assert await error_for(padded) == "too_large"
    not_an_action = action_message(1, ["trump", "H"])
    assert await error_for(json.dumps(not_an_action)) == "bad_action"
    a_bid_for_trump = action_message(1, {"bid": 1})
    assert await error_for(json.dumps(a_bid_for_trump)) == "wrong_action"

    await socket.send({"type": "ping"})
    assert await socket.receive() == {"type": "pong"}
    assert await progress(game) == before


async def test_the_size_limit_counts_bytes(connect):
    game, declarer, _ = await new_match()
    socket = await connect(game.pk, declarer)
    await socket.receive_until(of_type("presence"))
    # 3000 characters, 6000 bytes in UTF-8.
    text = json.dumps({"type": "ping", "pad": "ж" * 3000}, ensure_ascii=False)
    await socket.comm.send_to(text_data=text)
    frame = await socket.receive()
    assert (frame["type"], frame["code"]) == ("error", "too_large")


async def test_refused_actions_change_nothing(connect):
    game, declarer, other = await new_match()
    first, second, watcher = await table_of_three(connect, game, declarer, other)
    before = await progress(game)

    async def refusal(socket, message):
        await socket.send(message)
        frame = await socket.receive()
        assert frame["type"] == "error" and frame["id"] == message["id"]
        assert await progress(game) == before
        return frame["code"]

    assert await refusal(second, action_message(1, {"trump": "H"})) == "wrong_seat"
    assert await refusal(first, action_message(0, {"trump": "H"})) == "stale_version"
    assert await refusal(watcher, action_message(1, {"trump": "H"})) == "not_allowed"
    assert await refusal(watcher, {"type": "resign", "id": "r1"}) == "not_allowed"
    assert await refusal(first, action_message(1, {"trump": "red"})) == "illegal"
    for socket in (first, second, watcher):
        assert await socket.nothing_more()


async def test_a_resent_action_is_applied_once(connect):
    game, declarer, other = await new_match()
    first, second, _ = await table_of_three(connect, game, declarer, other)
    await first.send(action_message(1, {"trump": "H"}, "same"))
    ack = await first.receive_until(of_type("ack"))
    await first.send(action_message(1, {"trump": "H"}, "same"))
    assert await first.receive_until(of_type("ack")) == ack
    assert await progress(game) == (2, 2)
    await second.receive_until(of_type("update"))
    assert await second.nothing_more()


async def test_of_two_actions_sent_at_once_one_is_applied(connect):
    game, declarer, other = await new_match()
    first, second, watcher = await table_of_three(connect, game, declarer, other)
    again = await connect(game.pk, declarer)
    await again.receive_until(of_type("sync"))

    await asyncio.gather(
        first.send(action_message(1, {"trump": "H"}, "x")),
        again.send(action_message(1, {"trump": "S"}, "y")),
    )
    answers = []
    for socket in (first, again):
        answers.append(
            await socket.receive_until(lambda f: f["type"] in ("ack", "error"))
        )
    assert sorted(answer["type"] for answer in answers) == ["ack", "error"]
    assert [a["code"] for a in answers if a["type"] == "error"] == ["stale_version"]
    assert await progress(game) == (2, 2)
    update = await watcher.receive_until(of_type("update"))
    assert update["version"] == 2
    assert await watcher.nothing_more()


async def test_resigning_and_aborting_over_the_socket(connect):
    game, declarer, other = await new_match()
    first, second, watcher = await table_of_three(connect, game, declarer, other)
    await first.send({"type": "abort", "id": "ab"})
    ack = await first.receive_until(of_type("ack"))
    assert ack == {"type": "ack", "id": "ab"}
    # The end of a game is told as a snapshot, with the deals revealed.
    end = await watcher.receive_until(
        lambda frame: frame["type"] == "sync" and frame["status"] == "aborted"
    )
    assert len(end["reveal"]) == 1 and end["events"][-1]["version"] == end["version"]
    await second.send({"type": "resign", "id": "rs"})
    error = await second.receive_until(of_type("error"))
    assert (error["id"], error["code"]) == ("rs", "not_playing")


# Coming back


async def test_a_reconnecting_player_catches_up_from_its_version(connect):
    game, declarer, other = await new_match()
    first, second, _ = await table_of_three(connect, game, declarer, other)
    await second.close()
    seat = 1 - game.engine_state().turn
    gone = await first.receive_until(of_type("presence"))
    assert not gone["seats"][seat]["connected"]

    await first.send(action_message(1, {"trump": "C"}))
    update = await first.receive_until(of_type("update"))
    card = update["position"]["legal"][0]
    await first.send(action_message(2, card, "a2"))
    await first.receive_until(of_type("ack"))

    back = await connect(game.pk, other)
    sync = await back.receive()
    assert (sync["type"], sync["version"], sync["since"]) == ("sync", 3, None)
    presence = await first.receive_until(of_type("presence"))
    assert presence["seats"][seat]["connected"]
    await back.receive_until(of_type("presence"))

    await back.send({"type": "sync", "version": 1})
    sync = await back.receive()
    assert (sync["type"], sync["since"], sync["version"]) == ("sync", 1, 3)
    assert [step["version"] for step in sync["events"]] == [2, 3]
    assert sync["events"][1]["events"][0] == {"type": "card", "seat": 1 - seat, **card}
    assert sync["you"] == seat and sync["view"]["trick"] == [{**card, "seat": 1 - seat}]
    assert "legal" in sync["view"]


async def test_a_move_after_the_deadline_is_refused_and_the_timeout_applies_once(
    connect, settings
):
    settings.PULKA_ANY_TURN_SECONDS = True
    settings.PULKA_MOVE_LAG_SECONDS = 0.1
    game, declarer, other = await new_match(turn_seconds=1)
    first, second, _ = await table_of_three(connect, game, declarer, other)
    timeout = await first.receive_until(of_type("update"), timeout=5)
    assert timeout["version"] == 2
    named = timeout["events"][0]["events"][0]
    assert named["type"] == "trump"
    # The suit the clock named goes with it: the player's notice says it.
    assert named["trump"] in {"S", "H", "D", "C", "none"}

    await first.send(action_message(1, {"trump": "H"}, "late-1"))
    refusal = await first.receive_until(of_type("error"))
    assert (refusal["id"], refusal["code"]) == ("late-1", "late")
    causes = await db(
        lambda: list(
            GameEvent.objects.filter(game=game, kind="action").values_list(
                "cause", flat=True
            )
        )
    )()
    assert causes == ["timeout"]


async def test_a_timeout_move_says_so_on_the_wire(connect, settings):
    """The step the timer made carries ``"cause": "timeout"``, in the update
    and in a later sync's events; a player's own step has no such field."""
    settings.PULKA_ANY_TURN_SECONDS = True
    # Long enough for three sockets to connect and the first move to be made
    # on a busy machine; the second turn is left to run out.
    game, declarer, other = await new_match(turn_seconds=4)
    first, second, _ = await table_of_three(connect, game, declarer, other)
    await first.send(action_message(1, {"trump": "H"}, "own-1"))
    played = await first.receive_until(of_type("update"))
    assert played["version"] == 2
    assert [step.keys() for step in played["events"]] == [{"version", "events"}]
    assert played["events"][0]["events"][0]["type"] == "trump"

    # Nobody moves next: the timer does.
    timeout = await first.receive_until(of_type("update"), timeout=10)
    assert timeout["version"] == 3
    assert timeout["events"] == [
        {"version": 3, "events": timeout["events"][0]["events"], "cause": "timeout"}
    ]

    await second.send({"type": "sync", "version": 1})
    sync = await second.receive_until(of_type("sync"))
    assert [step.get("cause") for step in sync["events"]][:2] == [None, "timeout"]


async def test_a_page_loaded_after_a_trick_is_told_the_last_trick(connect):
    game, declarer, other = await new_match()
    leader = game.engine_state().turn
    first, second, _ = await table_of_three(connect, game, declarer, other)
    early = await connect(game.pk, await stranger())
    assert (await early.receive_until(of_type("sync")))["last_trick"] is None
    await first.send(action_message(1, {"trump": "C"}))
    lead = (await first.receive_until(of_type("update")))["position"]["legal"][0]
    await first.send(action_message(2, lead, "a2"))
    answer = (
        await second.receive_until(
            lambda message: message["type"] == "update" and message["version"] == 3
        )
    )["position"]["legal"][0]
    await second.send(action_message(3, answer, "b3"))
    await second.receive_until(of_type("ack"))

    late = await connect(game.pk, await stranger())
    sync = await late.receive_until(of_type("sync"))
    told = sync["last_trick"]
    assert told["version"] == 4
    assert [(play["seat"], play["card"]) for play in told["cards"]] == [
        (leader, lead["card"]),
        (1 - leader, answer["card"]),
    ]
    # The trick's winner leads the next one.
    assert told["winner"] == sync["view"]["turn"]
