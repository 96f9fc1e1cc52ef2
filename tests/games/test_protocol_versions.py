"""The game socket's protocol versions (docs/protocol.md, Protocol versions): a
socket asks for one as it opens; from 2 the answer to a move rides on the
mover's update, one frame where protocol 1 sends two. Protocol 1 stays as
it was (the live and protocol tests speak it)."""

from __future__ import annotations

import pytest

from games.live.commands import Action
from games.messages import protocol_asked
from tests.games.test_owners import Recorder, new_game, started_halls


@pytest.mark.parametrize(
    ("query", "spoken"),
    [
        (b"", 1),
        (b"protocol=1", 1),
        (b"protocol=2", 2),
        (b"lang=ka&protocol=2", 2),
        (b"protocol=7", 2),  # a newer client: the highest this server has
        (b"protocol=0", 1),
        (b"protocol=two", 1),
        (b"protocol=-2", 1),
        (b"protocol", 1),
    ],
)
def test_the_version_spoken_is_the_highest_up_to_the_one_asked(query, spoken):
    assert protocol_asked(query) == spoken


async def owner_with(sockets: dict[str, tuple[int | None, int]]):
    """A hall owning a new Japanese Joker game, with recording sockets
    attached: {key: (seat, protocol)}."""
    game = await new_game()
    (hall,) = await started_halls(1)
    owner = await hall.adopt(game.pk)
    sinks = {}
    for key, (seat, protocol) in sockets.items():
        sinks[key] = Recorder()
        await owner.attach(key, sinks[key], seat, None, protocol)
    return hall, owner, sinks


def after_sync(sink: Recorder) -> list[dict]:
    """The frames after the opening sync, presence left out."""
    return [f for f in sink.frames[1:] if f["type"] != "presence"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_protocol_2_folds_the_answer_into_the_movers_update():
    hall, owner, sinks = await owner_with({"p0": (0, 2), "p1": (1, 1)})
    try:
        seat = owner.live.state.turn
        mover, other = ("p0", "p1") if seat == 0 else ("p1", "p0")
        assert sinks["p0"].frames[0]["protocol"] == 2, "the sync says the version"
        assert "protocol" not in sinks["p1"].frames[0]
        protocol = 2 if mover == "p0" else 1
        await owner.handle(Action(seat, "m1", 1, {"trump": "H"}), mover)
        moved = after_sync(sinks[mover])
        seen = after_sync(sinks[other])
        if protocol == 2:
            assert [f["type"] for f in moved] == ["update"]
            assert moved[0]["ack"] == "m1" and moved[0]["version"] == 2
        else:
            assert [f["type"] for f in moved] == ["update", "ack"]
            assert "ack" not in moved[0]
        assert [f["type"] for f in seen] == ["update"]
        assert "ack" not in seen[0]
    finally:
        await hall.stop()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_each_version_gets_its_own_answers_at_one_table():
    """Both seats' players on protocol 2, the mover with a second device on
    protocol 1: the moving socket gets one frame, its other device the
    update and no answer of someone else's move, a resend an ack alone."""
    game_sockets = {"p0": (0, 2), "p1": (1, 2), "p0-old": (0, 1), "p1-old": (1, 1)}
    hall, owner, sinks = await owner_with(game_sockets)
    try:
        seat = owner.live.state.turn
        mover = f"p{seat}"
        await owner.handle(Action(seat, "m1", 1, {"trump": "H"}), mover)
        assert [(f["type"], f.get("ack")) for f in after_sync(sinks[mover])] == [
            ("update", "m1")
        ]
        for key in set(game_sockets) - {mover}:
            frames = after_sync(sinks[key])
            assert [(f["type"], f.get("ack")) for f in frames] == [("update", None)]
        # The same move sent again: answered as before, an ack alone.
        await owner.handle(Action(seat, "m1", 1, {"trump": "H"}), mover)
        assert after_sync(sinks[mover])[-1] == {"type": "ack", "id": "m1", "version": 2}
        # A refusal is an error frame in both versions.
        await owner.handle(Action(seat, "m2", 1, {"trump": "H"}), mover)
        assert after_sync(sinks[mover])[-1]["code"] == "stale_version"
    finally:
        await hall.stop()
