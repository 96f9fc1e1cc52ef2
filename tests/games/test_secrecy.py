"""No frame on the wire shows a card its recipient may not see.

Whole games are played over WebSockets by people in every seat, each picking
the first legal choice of the snapshot it was sent, with a spectator
watching and one seat dropping out and resyncing halfway. Afterwards every
frame each connection received is checked against the server's own record
of the game. At the version it was sent at, a snapshot may show its seat's
own hand (while trump is being named, only its first three cards, and in a
4-player game only to the seat naming trump) and the public cards of the
current deal: the turned card, the face-up Japanese column cards and the
cards played so far. The public events a frame carries may show only the
public cards of their own step's deal. After the game, everything.

The check is per deal, not per game: in a 4-player game every card has been
played by the end of the first 9-card deal, so "played so far in the game"
would hide nothing from then on.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from joker.cards import DECK
from joker.state import BID, PLAY, TRUMP
from tests.factories import UserFactory
from tests.games.helpers import (
    CARD_CODE,
    action_message,
    all_connected,
    assert_replays,
    first_legal,
    of_type,
    start_table,
    states_by_version,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

db = database_sync_to_async

# The step at which one seat disconnects, comes back and asks for a resync.
RESYNC_AT = 20

# Club nines (16 deals) and Japanese Joker to 11 are played to the end. The
# 24-deal profiles stop after their first 10 deals: 1 to 9 cards, then the
# first 9-card deal after the 8-card one, where trump is named (club classic,
# live-games) or fixed by the dealer's own last card (Tvaladze).
GAMES = [
    pytest.param(
        "georgian-club", {"schedule": "nines", "pairs": True}, None, id="club-nines"
    ),
    pytest.param("japanese", {"target": 11}, None, id="japanese"),
    pytest.param("georgian-club", {}, 10, id="club-classic-10-deals"),
    pytest.param("georgian-tvaladze", {}, 10, id="tvaladze-10-deals"),
    pytest.param("live-games", {}, 10, id="live-games-10-deals"),
]


@db
def people_in_every_seat(profile, options):
    players = 2 if profile == "japanese" else 4
    table, users = start_table(profile, options, people=players)
    return Game.objects.get(table=table), users, UserFactory()


def visible_hand(state, seat) -> set[str]:
    """The cards of its own hand that ``seat`` may see in ``state``."""
    if seat is None or state.phase not in (TRUMP, BID, PLAY):
        return set()
    hand = state.hands[seat]
    if state.phase == TRUMP:
        namer = state.rules.is_japanese or seat == state.turn
        hand = hand[:3] if namer else ()
    return set(hand)


def cards_in(part) -> set[str]:
    return set(CARD_CODE.findall(json.dumps(part)))


def frame_parts(frames, seat):
    """Split each frame into what it shows and the version that shows it:
    its snapshot (for ``seat``) at the frame's version, and each step's
    public events (for anyone) at that step's version. A frame without a
    version, such as an error, counts at the last version seen."""
    version = None
    for text in frames:
        frame = json.loads(text)
        version = frame.get("version", version)
        for step in frame.pop("events", None) or []:
            yield frame["type"], step["version"], None, step
        yield frame["type"], version, seat, frame


def hidden_cards_shown(frames, seat, history) -> list:
    """(type, version, cards) of each frame showing a card ``seat`` may not
    see at that moment."""
    leaks = []
    for kind, version, who, part in frame_parts(frames, seat):
        state, public = history[version]
        if state.is_over:
            continue
        shown = cards_in(part) - public - visible_hand(state, who)
        if shown:
            leaks.append((kind, version, sorted(shown)))
    return leaks


def own_cards_shown(frames, seat, history) -> int:
    """How many frames show ``seat`` a card of its own that is not public."""
    count = 0
    for _, version, who, part in frame_parts(frames, seat):
        state, public = history[version]
        count += bool(cards_in(part) & (visible_hand(state, who) - public))
    return count


async def play(connect, game, users, watcher_user, deals):
    """Play over the sockets; returns every (socket, seat) that took part."""
    seats = [await connect(game.pk, user) for user in users]
    watcher = await connect(game.pk, watcher_user)
    for socket in seats:
        await socket.receive_until(all_connected)
    await watcher.receive_until(of_type("sync"))
    audience = [*((socket, n) for n, socket in enumerate(seats)), (watcher, None)]

    away = None  # (seat, the last version it saw) while its player is gone
    dropped = False
    while True:
        now = watcher.latest
        if now["status"] != "playing" or now["view"]["deal"] == deals:
            break
        turn = now["view"]["turn"]
        if away and away[0] == turn:
            audience.append(
                (await come_back(connect, game, users, seats, watcher, *away), turn)
            )
            away = None
        mover = seats[turn]
        assert mover.latest["version"] == now["version"]
        version = now["version"]
        await mover.send(
            action_message(version, first_legal(mover.latest["view"]), f"v{version}")
        )
        after = (await mover.receive_until(of_type("ack")))["version"]
        assert mover.latest["version"] == after  # the update came first
        for socket in [*seats, watcher]:
            if socket is not mover and socket.connected:
                await socket.receive_until(update_at(after))
        next_turn = mover.latest["view"]["turn"]
        if not dropped and after >= RESYNC_AT and next_turn not in (turn, None):
            # The seat that just moved drops out until it is to move again
            # (not right after its own move, so that it misses some steps).
            dropped = True
            away = (turn, await drop(seats, watcher, turn))
    if away:
        audience.append(
            (await come_back(connect, game, users, seats, watcher, *away), away[0])
        )
    for socket, _ in audience:
        while socket.connected and not await socket.nothing_more():
            await socket.receive()
    return audience


def update_at(version):
    """The frame that tells of ``version``: an update, or the sync that
    ends the game."""
    return lambda frame: (
        frame["type"] in ("update", "sync") and frame["version"] == version
    )


async def drop(seats, watcher, seat) -> int:
    """Close ``seat``'s socket; returns the last version it saw."""
    gone = seats[seat]
    await gone.close()
    for socket in [*seats, watcher]:
        if socket.connected:
            await socket.receive_until(
                lambda f: f["type"] == "presence" and not f["seats"][seat]["connected"]
            )
    return gone.latest["version"]


async def come_back(connect, game, users, seats, watcher, seat, seen):
    """Reconnect ``seat`` and ask for the steps after ``seen``."""
    back = await connect(game.pk, users[seat])
    first = await back.receive()
    assert first["type"] == "sync" and first["since"] is None
    await back.send({"type": "sync", "version": seen})
    sync, _ = await back.receive_each(
        lambda f: f["type"] == "sync" and f["since"] == seen, all_connected
    )
    missed = list(range(seen + 1, sync["version"] + 1))
    assert missed and [step["version"] for step in sync["events"]] == missed
    for socket in [*seats, watcher]:
        if socket.connected:
            await socket.receive_until(all_connected)
    seats[seat] = back
    return back


@pytest.mark.parametrize("profile, options, deals", GAMES)
async def test_no_frame_shows_a_hidden_card(connect, profile, options, deals):
    game, users, watcher_user = await people_in_every_seat(profile, options)
    audience = await play(connect, game, users, watcher_user, deals)

    history = await db(states_by_version)(game)
    for socket, seat in audience:
        assert hidden_cards_shown(socket.frames, seat, history) == []
    # The check has teeth: each seat was shown cards of its own.
    for socket, seat in audience[: len(users)]:
        assert own_cards_shown(socket.frames, seat, history) > 0

    await db(game.refresh_from_db)()
    if deals is None:
        assert game.status == Game.Status.FINISHED
        watcher = audience[len(users)][0]
        assert watcher.latest["status"] == "finished" and watcher.latest["reveal"]
        await db(assert_replays)(game)
    else:
        assert game.status == Game.Status.PLAYING
        assert game.engine_state().deal_index == deals


@db
def japanese_card_phase():
    """A Japanese match at its first card, and the declarer's face-down cards."""
    table, users = start_table("japanese", {"target": 11}, people=2)
    game = Game.objects.get(table=table)
    state = game.engine_state()
    return game, users[state.turn], [down for down, _ in state.columns[state.turn]]


async def test_refusals_do_not_tell_face_down_cards_apart(connect):
    game, declarer, face_down = await japanese_card_phase()
    socket = await connect(game.pk, declarer)
    sync = await socket.receive_until(of_type("sync"))
    await socket.send(action_message(1, {"trump": "none"}, "t"))
    await socket.receive_until(of_type("update"))
    view = socket.latest["view"]
    ups = {column["up"] for own in view["columns"] for column in own}
    visible = set(view["hand"]) | ups
    assert sync["you"] == view["turn"]

    messages = {}
    for card in sorted(set(DECK) - visible):
        play = {"card": card, "mode": "take", "suit": "S"} if card[0] == "X" else {}
        await socket.send(action_message(2, play or {"card": card}, f"p{card}"))
        error = await socket.receive_until(of_type("error"))
        assert error["code"] == "illegal"
        messages[card] = error["message"].replace(card, "<card>")
    assert set(face_down) <= set(messages)
    assert len(set(messages.values())) == 1, messages
