"""Faults in the middle of a game, each followed by a restart with the
README's command: SIGKILL of the web process, of the Celery worker, of Celery
beat, of PostgreSQL and of Redis, and a disk that refuses PostgreSQL's
writes. Real processes throughout: ``scripts/run_platform.py`` with uvicorn,
worker and beat on embedded servers of its own (tests/faults/conftest.py),
and two players on real WebSockets at a ranked table with a stake.

Each fault kind runs three times in a row on one platform and one game.
After each restart:

- the game's version and each player's hand are what the players last saw,
  and every move a player had acknowledged is in the event log at the
  version its ``ack`` named (no move lost);
- no turn ran out between the fault and the players' return;
- a turn then left to run out is timed out exactly once;
- the coin ledger sums to zero, every balance matches its entries, and the
  stakes are still in the game's escrow;
- every error and close code the players met is one docs/protocol.md lists
  (a server that dies closes no socket: its players meet no code at all).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import time

import psutil
import pytest
from websockets.exceptions import ConnectionClosed

from tests.live.support import TableClient
from tests.protocol_document import promises

from .conftest import STAKE, TURN_SECONDS, Platform

FAULTS = ("web", "worker", "beat", "postgres", "redis", "full-disk")
REPETITIONS = (1, 2, 3)
# Moves played before each fault.
MOVES = 6
# How long the players go on after a fault, before the restart.
OUTAGE_SECONDS = 3
# The worker's warning that a sweep failed with PostgreSQL down and will be
# tried again (a sweep a second, each failing after the pool's timeout, 1 s
# here: conftest), and how much longer than the outage PostgreSQL may stay
# down to see one on a loaded machine.
SWEEP_RETRIED = re.compile(
    r"WARNING config\.task_retries: games\.tasks\.sweep\[[\w-]+\]: "
    r"OperationalError: .*; trying again in 1 s \(retry 1 of 5\)"
)
RETRY_WAIT_SECONDS = 3
# The tmpfs under the tablespace of the full-disk fault.
SMALL_DISK = "4m"

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.timeout(600)]


class Rig:
    """One fault kind's platform and game, shared by its repetitions."""

    def __init__(self, fault: str, platform: Platform):
        self.fault = fault
        self.platform = platform
        created = platform.db("setup", TURN_SECONDS, STAKE)
        self.game = created["game"]
        self.sessions = created["sessions"]
        self.small_disk = None

    def client(self, seat: int) -> TableClient:
        return FaultClient(self.platform.url, self.game, self.sessions[seat])

    def close(self) -> None:
        self.platform.stop()
        if self.small_disk:
            subprocess.run(["umount", "-l", str(self.small_disk)], check=False)
        self.platform.close()


@pytest.fixture(
    scope="module",
    params=[
        pytest.param(fault, marks=pytest.mark.xdist_group(f"faults-{fault}"))
        for fault in FAULTS
    ],
)
def rig(request, tmp_path_factory):
    if request.param == "full-disk" and os.geteuid() != 0:
        pytest.skip("the small disk is a tmpfs, which only root may mount")
    platform = Platform(tmp_path_factory.mktemp(f"fault-{request.param}"))
    rig = None
    try:
        platform.start(timeout=180)
        rig = Rig(request.param, platform)
        yield rig
    finally:
        if rig is not None:
            rig.close()
        else:
            platform.close()
        if request.node.session.testsfailed:
            print(f"\n--- platform logs ---\n{platform.log()}")


class FaultClient(TableClient):
    """A table client that notes how its socket was closed: the close code,
    or None when the connection died without one."""

    closed = False
    close_code: int | None = None

    async def receive_or_note_close(self, timeout: float) -> None:
        """Receive a message if one comes within ``timeout``; a closed
        socket is noted with its close code."""
        try:
            await self.receive(timeout=timeout)
        except TimeoutError:
            pass
        except ConnectionClosed as closed:
            self.closed = True
            self.close_code = closed.rcvd.code if closed.rcvd else None

    async def listen(self, stop: asyncio.Event) -> None:
        """Receive until ``stop`` is set or the socket is closed."""
        while not stop.is_set() and not self.closed:
            await self.receive_or_note_close(0.5)

    async def play_until_refused(self, other: FaultClient, seconds: float) -> None:
        """Both players play on until a move of either is refused (or
        ``seconds`` pass)."""
        limit = time.monotonic() + seconds
        while not (self.errors or other.errors) and time.monotonic() < limit:
            for client in (self, other):
                if await client.probe(5) is not None:
                    return  # unanswered: the test asks the log

    async def probe(self, seconds: float) -> str | None:
        """On this seat's turn, send its move and wait for the answer;
        returns the move's id while it is unanswered."""
        if self.closed or not self.my_turn():
            await self.receive_or_note_close(0.05)
            return None
        try:
            client_id = await self.act()
        except ConnectionClosed:
            self.closed = True
            return None
        limit = time.monotonic() + seconds
        while time.monotonic() < limit and not self.closed:
            if client_id in self.acks or any(
                error.get("id") == client_id for error in self.errors
            ):
                return None
            await self.receive_or_note_close(0.5)
        return None if client_id in self.acks else client_id


# The faults


def kill_tree(process: psutil.Process) -> None:
    """SIGKILL a process and its children at once, as the OOM killer or a
    machine's crash would."""
    for proc in [*process.children(recursive=True), process]:
        try:
            proc.kill()
        except psutil.NoSuchProcess:
            pass


def inflict(rig: Rig) -> None:
    platform = rig.platform
    if rig.fault in ("web", "worker", "beat"):
        kill_tree(platform.child(rig.fault))
    elif rig.fault == "postgres":
        kill_tree(psutil.Process(platform.postmaster_pid()))
    elif rig.fault == "redis":
        os.kill(platform.redis_pid(), signal.SIGKILL)
    else:
        fill_the_disk(rig)


def fill_the_disk(rig: Rig) -> None:
    """Move the game-event table and its indexes to a tablespace on a small
    tmpfs, then fill that filesystem: the next page PostgreSQL needs for
    them fails with "No space left on device"."""
    platform = rig.platform
    if rig.small_disk is None:
        mount = platform.var_dir / "small"
        mount.mkdir()
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={SMALL_DISK}", "pulka-small", mount],
            check=True,
        )
        rig.small_disk = mount
        space = mount / "tablespace"
        space.mkdir()
        shutil_chown(space, "pgserver")
        platform.psql(f"CREATE TABLESPACE small LOCATION '{space}'")
        platform.psql("ALTER TABLE games_gameevent SET TABLESPACE small")
        platform.psql(
            "DO $$ DECLARE name text; BEGIN"
            " FOR name IN SELECT indexname FROM pg_indexes"
            " WHERE tablename = 'games_gameevent' LOOP"
            " EXECUTE format('ALTER INDEX %I SET TABLESPACE small', name);"
            " END LOOP; END $$"
        )
    with open(rig.small_disk / "filler", "wb") as filler:
        try:
            while True:
                filler.write(b"\0" * 65536)
                filler.flush()
        except OSError:
            pass


def shutil_chown(path, user: str) -> None:
    import shutil

    shutil.chown(path, user, user)


def repair(rig: Rig) -> None:
    """What an operator does before the restart: free the disk."""
    if rig.fault == "full-disk":
        (rig.small_disk / "filler").unlink()


# The checks


async def logged(path, pattern: re.Pattern, seconds: float) -> bool:
    """Whether ``pattern`` is in the log at ``path`` within ``seconds``."""
    limit = time.monotonic() + seconds
    while True:
        if pattern.search(path.read_text(errors="replace")):
            return True
        if time.monotonic() > limit:
            return False
        await asyncio.sleep(0.2)


def documented(clients, fault: str) -> list:
    """Error codes and close codes the clients met that protocol.md does not
    list. A socket may end with no code only when the process serving it
    was killed."""
    promised = promises()
    stray = [
        error["code"]
        for client in clients
        for error in client.errors
        if error["code"] not in promised.errors
    ]
    stray += [
        client.close_code
        for client in clients
        if client.closed
        and client.close_code not in promised.close_codes
        and not (client.close_code is None and fault == "web")
    ]
    return stray


def position(snapshot: dict) -> dict:
    """What a seat knows of the game at a version: its hand and the rest of
    its view."""
    view = snapshot["view"]
    keys = ("phase", "turn", "hand", "hand_sizes", "columns", "totals", "left")
    return {"version": snapshot["version"], **{key: view.get(key) for key in keys}}


@pytest.mark.parametrize("repetition", REPETITIONS)
def test_a_fault_mid_game_then_a_restart_loses_nothing(rig, repetition):
    platform = rig.platform

    async def scenario():
        # Mid-game: a few moves, every one acknowledged.
        a, b = rig.client(0), rig.client(1)
        async with a, b:
            start = a.snapshot["version"]
            await asyncio.gather(
                a.play_until(lambda c: c.snapshot["version"] >= start + MOVES, 60),
                b.play_until(lambda c: c.snapshot["version"] >= start + MOVES, 60),
            )
            # The owner's heartbeat notes both seats present.
            await asyncio.sleep(2.5)

            faulted_at = time.time()
            inflict(rig)
            # The player to move tries a move; both go on listening, and
            # are still connected, if the fault left them so, when the
            # platform is stopped and started again.
            if rig.fault == "full-disk":
                # Moves still fit in pages PostgreSQL has; one soon does not.
                await a.play_until_refused(b, 30)
                assert a.errors or b.errors, "the full disk refused nothing"
            unanswered = [await client.probe(OUTAGE_SECONDS) for client in (a, b)]
            stop = asyncio.Event()
            listening = [asyncio.create_task(client.listen(stop)) for client in (a, b)]
            await asyncio.sleep(max(0, faulted_at + OUTAGE_SECONDS - time.time()))
            if rig.fault == "postgres":
                # PostgreSQL stays down until a sweep has failed and been
                # tried again (the check below), a little longer at most.
                faulted_log = platform.log_dir / f"platform-{platform.starts}.log"
                await logged(faulted_log, SWEEP_RETRIED, RETRY_WAIT_SECONDS)
            await asyncio.to_thread(repair, rig)
            restarting_at = time.time()
            # Stopped as Ctrl-C stops it, and started again the same way.
            await asyncio.to_thread(platform.stop)
            platform.spawn()
            await asyncio.to_thread(platform.wait_ready)
            restarted_at = time.time()
            stop.set()
            await asyncio.gather(*listening)
            last_seen = [position(a.snapshot), position(b.snapshot)]
            acked = [
                (client.you, client_id, ack["version"])
                for client in (a, b)
                for client_id, ack in client.acks.items()
            ]
            refused = [*a.errors, *b.errors]
            stray = documented([a, b], rig.fault)
            closes = [a.close_code, b.close_code]

        # The players come back.
        a, b = rig.client(0), rig.client(1)
        async with a, b:
            back_at = time.time()
            back = [position(a.snapshot), position(b.snapshot)]
            stored = await asyncio.to_thread(platform.db, "state", rig.game)
            # Nobody moves: the turn runs out, once.
            version = a.snapshot["version"]
            await asyncio.gather(
                a.receive_until(lambda c: c.snapshot["version"] > version, 60),
                b.receive_until(lambda c: c.snapshot["version"] > version, 60),
            )
            await asyncio.sleep(2)
            after = await asyncio.to_thread(platform.db, "state", rig.game)
            stray += documented([a, b], rig.fault)
        return locals()

    seen = asyncio.run(scenario())
    stored, after = seen["stored"], seen["after"]
    last_seen, back = seen["last_seen"], seen["back"]
    events = after["events"]
    print(
        f"\n{rig.fault} #{repetition}: closes {seen['closes']}, "
        f"refused {[e['code'] for e in seen['refused']]}, "
        f"unanswered {seen['unanswered']}, version {last_seen[0]['version']}"
        f" -> {back[0]['version']} -> {after['version']}"
    )
    tail = [
        [*event[:4], round(event[4] - seen["faulted_at"], 1)]
        for event in after["events"][last_seen[0]["version"] - 2 :]
    ]
    print(f"events from the fault on (version, seat, id, cause, seconds): {tail}")
    print(
        "seconds after the fault: restart "
        f"{seen['restarting_at'] - seen['faulted_at']:.1f}"
        f"-{seen['restarted_at'] - seen['faulted_at']:.1f}, players back "
        f"{seen['back_at'] - seen['faulted_at']:.1f}"
    )

    assert [event[0] for event in events] == list(range(1, len(events) + 1))
    # Every acknowledged move is in the log, once, in the step whose version
    # its ack named (a move that ends a deal is followed by the next deal
    # in the same step).
    by_client = {(event[1], event[2]): event[0] for event in events if event[2]}
    assert len(by_client) == len([event for event in events if event[2]])
    for seat, client_id, version in seen["acked"]:
        stored_at = by_client.get((seat, client_id))
        assert stored_at is not None, f"lost move {client_id} of seat {seat}"
        assert stored_at <= version, (client_id, stored_at, version)
        assert not [e for e in events[stored_at:version] if e[2]], (client_id, version)
    # The game is where the players left it: the same version and hands. A
    # move sent at the fault and never answered may have been stored.
    sent = [client_id for client_id in seen["unanswered"] if client_id]
    extra = [event[2] for event in events[last_seen[0]["version"] : back[0]["version"]]]
    assert extra == sent[: len(extra)], "moves nobody made"
    if not extra:
        assert back == last_seen
    assert back[0]["version"] == back[1]["version"]
    # What is stored is what the players were shown on their return, but
    # for turns that ran out (nobody moving) before the check read it: on a
    # busy machine that read can take a turn's time.
    late = events[back[0]["version"] : stored["version"]]
    assert stored["version"] >= back[0]["version"], (stored["version"], back)
    assert all(event[3] == "timeout" and not event[2] for event in late), late
    assert stored["status"] == "playing"
    # No turn ran out between the fault and the players' return.
    during = [
        event
        for event in events
        if event[3] == "timeout" and seen["faulted_at"] <= event[4] <= seen["back_at"]
    ]
    assert not during, f"turns ran out during the outage: {during}"
    # The turn left to run out did so, and nobody moved. Later turns may
    # have run out too before the check read the game (each a whole turn
    # after the one before), but never one turn twice.
    since = events[back[0]["version"] :]
    timeouts = [event for event in since if event[3] == "timeout"]
    assert timeouts, since
    assert all(
        later[4] - earlier[4] >= TURN_SECONDS - 1
        for earlier, later in zip(timeouts, timeouts[1:], strict=False)
    ), since
    assert not [event for event in since if event[2]], since
    # The books.
    assert after["ledger_total"] == 0
    assert after["ledger_mismatches"] == 0
    assert after["escrow"] == 2 * STAKE
    assert not seen["stray"], f"undocumented codes: {seen['stray']}"
    if rig.fault == "postgres":
        # The beat's sweep went on while PostgreSQL was down: the worker
        # tried it again with a warning, and no task failed with a
        # traceback (the log check, tests/conftest.py).
        faulted_run = platform.log_dir / f"platform-{platform.starts - 1}.log"
        assert SWEEP_RETRIED.search(faulted_run.read_text(errors="replace")), (
            "no retry of the sweep while PostgreSQL was down"
        )
