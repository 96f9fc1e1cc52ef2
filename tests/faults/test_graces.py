"""A disconnect grace outlives whatever process dies during it.

Two players at a ranked Japanese table with a stake; the second closes their
socket (their browser), so their seat has the grace period to come back.
During the grace a process of the platform dies: the Celery worker
(SIGKILL), the web process (SIGKILL), or the whole platform is stopped and
started again with the README's command. Then the grace must end exactly
once, for the player who left and not the other: their seat is left, the
match is lost, the stakes paid to the one who stayed, even when nobody
opens the table again (the beat's sweep hands the game to an owner).
"""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.live.support import TableClient

from .conftest import STAKE, Platform
from .test_faults import kill_tree

# Short enough to wait out, long enough that the fault lands inside it.
GRACE_SECONDS = 8
TURN_SECONDS = 60

FAULTS = ("worker", "web", "restart")

pytestmark = [
    pytest.mark.faults,
    pytest.mark.slow,
    pytest.mark.timeout(600),
    pytest.mark.xdist_group("faults-graces"),
]


@pytest.fixture(scope="module")
def platform(tmp_path_factory):
    platform = Platform(tmp_path_factory.mktemp("fault-graces"))
    platform.env["PULKA_DISCONNECT_GRACE_SECONDS"] = str(GRACE_SECONDS)
    try:
        platform.start(timeout=180)
        yield platform
    finally:
        platform.close()
        if platform.log_dir.exists():
            print(f"\n--- platform logs ---\n{platform.log()}")


def wait_for_end(platform: Platform, game: int, seconds: float) -> dict:
    limit = time.monotonic() + seconds
    while True:
        stored = platform.db("state", game)
        if stored["status"] != "playing" or time.monotonic() > limit:
            return stored
        time.sleep(1)


@pytest.mark.parametrize("fault", FAULTS)
def test_a_grace_ends_once_for_the_player_who_left_whatever_dies(platform, fault):
    created = platform.db("setup", TURN_SECONDS, STAKE)
    game, sessions = created["game"], created["sessions"]

    async def both_seen_then_one_leaves() -> float:
        async with TableClient(platform.url, game, sessions[0]):
            async with TableClient(platform.url, game, sessions[1]) as leaver:
                await leaver.receive_until(
                    lambda c: all(s["connected"] for s in c.snapshot["seats"]), 10
                )
            left_at = time.time()
            # The owner starts the grace; the worker has had time to take
            # any task it might have been sent for it.
            await asyncio.sleep(1.5)
        return left_at

    left_at = asyncio.run(both_seen_then_one_leaves())
    during = platform.db("state", game)
    assert during["status"] == "playing"
    assert during["presence"]["1"] is not None, during["presence"]

    if fault in ("worker", "web"):
        # The runner starts a killed process again.
        kill_tree(platform.child(fault))
    else:
        platform.stop()
        platform.spawn()
        platform.wait_ready()
    faulted_for = time.time() - left_at

    # Nobody opens the table again.
    stored = wait_for_end(platform, game, GRACE_SECONDS + faulted_for + 30)
    print(
        f"\n{fault}: fault over {faulted_for:.1f} s after the leave; "
        f"events {[event[1:4] for event in stored['events'][-2:]]}"
    )
    assert stored["status"] == "finished", "the grace never ended"
    assert stored["left"] == [1], "the wrong seat lost the game"
    assert stored["winners"] == [0]
    leaves = [event for event in stored["events"] if event[3] == "disconnect"]
    assert len(leaves) == 1 and leaves[0][1] == 1
    # Not before the grace was over (it may run longer by an outage).
    assert leaves[0][4] >= left_at + GRACE_SECONDS - 0.5
    assert stored["ledger_total"] == 0
    assert stored["ledger_mismatches"] == 0
    assert stored["escrow"] == 0
