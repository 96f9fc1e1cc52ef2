"""The commands a game's owner is told: read once from a socket's frame,
and carried across the channel layer as plain data and back."""

import msgpack
import pytest

from games.live import commands
from games.live.commands import (
    Abort,
    Action,
    Attach,
    Detach,
    Heard,
    Refused,
    Reload,
    Resign,
    Sync,
    Wake,
)


@pytest.mark.parametrize(
    "command",
    [
        Action(2, "m-1", 7, {"card": "AS"}),
        Resign(0, None),
        Abort(1, "a"),
        Sync(None),
        Sync(12),
        Heard(),
        Reload(5),
        Reload(),
        Attach(None, 3, "specific.abc!def"),
        Detach(),
        Wake(),
    ],
)
def test_every_command_crosses_the_channel_layer_unchanged(command):
    # The channel layer packs its messages with msgpack.
    carried = msgpack.unpackb(msgpack.packb(commands.to_message(command)))
    assert commands.from_message(carried) == command


def test_a_frame_is_read_into_its_command():
    action = {"type": "action", "id": "m-1", "version": 4, "action": {"trump": "H"}}
    assert commands.from_frame(action, 3) == Action(3, "m-1", 4, {"trump": "H"})
    assert commands.from_frame({"type": "resign", "id": 5}, 0) == Resign(0, None)
    assert commands.from_frame({"type": "abort"}, 1) == Abort(1, None)
    assert commands.from_frame({"type": "sync"}, None) == Sync(None)
    assert commands.from_frame({"type": "ping"}, None) == Heard()


@pytest.mark.parametrize(
    ("frame", "seat", "refusal"),
    [
        ({"type": "action", "id": "x", "version": 1}, None, ("x", "not_allowed")),
        ({"type": "resign", "id": "r"}, None, ("r", "not_allowed")),
        ({"type": "abort"}, None, (None, "not_allowed")),
        # A malformed move is refused as such, a spectator's too.
        ({"type": "action", "id": "x"}, None, ("x", "bad_message")),
        ({"type": "action", "id": "", "version": 1}, 0, (None, "bad_message")),
        ({"type": "sync", "version": "1"}, 0, (None, "bad_message")),
        ({"type": "dance", "id": "d"}, 0, ("d", "unknown_type")),
    ],
)
def test_a_frame_that_is_no_command_of_the_sockets_is_refused(frame, seat, refusal):
    with pytest.raises(Refused) as refused:
        commands.from_frame(frame, seat)
    assert (refused.value.id, refused.value.code) == refusal
