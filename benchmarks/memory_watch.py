"""The web process's memory over a long hold (``players.py --memory-every``):
its private RSS sampled, and heap snapshots taken inside it by tracemalloc,
so that what grows can be named by the line that allocated it.

The web process of the benchmark serves ``live_tables.make_application``,
which calls ``allow_snapshots``: when ``SNAPSHOT_DIR_ENV`` names a
directory, tracemalloc traces from the start and each SIGUSR2 dumps a
snapshot there. The benchmark signals the process every few minutes
(``watch``) and compares the snapshots of the second half of the hold
(``report``): a process whose memory levels off shows the same RSS and
the same traced total at the half and at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

SNAPSHOT_DIR_ENV = "PULKA_BENCH_SNAPSHOT_DIR"
# Frames kept a block: one names the allocating line and keeps tracing's
# own cost (time and memory) low enough for an hour under load.
FRAMES = 1
RSS_EVERY = 10  # seconds between samples of the RSS
FLAT_WITHIN = 0.05  # the target: RSS flat within 5% over the second half


def allow_snapshots() -> None:
    """In the web process: trace allocations and dump a snapshot on SIGUSR2,
    when the benchmark asked for it (``SNAPSHOT_DIR_ENV``)."""
    directory = os.environ.get(SNAPSHOT_DIR_ENV)
    if not directory:
        return
    tracemalloc.start(FRAMES)
    numbers = itertools.count()

    def dump(signum, frame):
        # Written under a temporary name, so that the benchmark never reads
        # half a file.
        path = Path(directory, f"{next(numbers):04d}.snap")
        tracemalloc.take_snapshot().dump(str(path) + ".part")
        os.replace(str(path) + ".part", path)

    signal.signal(signal.SIGUSR2, dump)


@dataclass
class Watch:
    pid: int
    directory: Path
    rss: list[tuple[float, int]] = field(default_factory=list)  # (s, bytes)
    snapshots: list[tuple[float, Path]] = field(default_factory=list)


def private_rss(pid: int) -> int:
    import psutil

    memory = psutil.Process(pid).memory_info()
    return memory.rss - memory.shared


async def watch(state: Watch, every: float, done: asyncio.Event) -> None:
    """Sample the RSS every ``RSS_EVERY`` s and ask for a snapshot every
    ``every`` s (and once at the start) until ``done``."""
    began = time.monotonic()
    next_snapshot = began
    while not done.is_set():
        now = time.monotonic()
        state.rss.append((now - began, private_rss(state.pid)))
        if now >= next_snapshot:
            await snapshot(state, now - began)
            next_snapshot += every
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), RSS_EVERY)
    await snapshot(state, time.monotonic() - began)


async def snapshot(state: Watch, at: float) -> None:
    path = state.directory / f"{len(state.snapshots):04d}.snap"
    os.kill(state.pid, signal.SIGUSR2)
    # A heap of a few hundred MB takes a second or two to dump; bounded.
    for _ in range(600):
        if path.exists():
            state.snapshots.append((at, path))
            return
        await asyncio.sleep(0.1)
    print(f"memory: snapshot {path.name} not written within 60 s", flush=True)


def report(state: Watch, top: int = 12) -> bool:
    """Print the RSS over the hold and what grew in its second half; True
    when the RSS is flat within ``FLAT_WITHIN`` over that half."""
    if len(state.rss) < 2:
        print("memory: too few samples")
        return False
    end = state.rss[-1][0]
    half = end / 2
    print(f"\nweb process private RSS over {end / 60:.0f} minutes (MB):")
    step = max(1, len(state.rss) // 12)
    samples = state.rss[::step]
    print("  " + ", ".join(f"{s / 60:.0f} min {b / 2**20:.0f}" for s, b in samples))
    second = [b for s, b in state.rss if s >= half]
    # Means over the first and last tenth of the second half, so that one
    # sample taken during a collection does not decide it.
    tenth = max(1, len(second) // 10)
    start_mb = sum(second[:tenth]) / tenth / 2**20
    end_mb = sum(second[-tenth:]) / tenth / 2**20
    change = end_mb / start_mb - 1
    flat = abs(change) <= FLAT_WITHIN
    print(
        f"  second half: {start_mb:.1f} MB at its start, {end_mb:.1f} MB at its end "
        f"({change:+.1%}; largest {max(second) / 2**20:.1f} MB): "
        + ("flat within 5%" if flat else "NOT flat within 5%")
    )
    taken = [(s, p) for s, p in state.snapshots if p.exists()]
    if len(taken) >= 2:
        at_half = min(taken, key=lambda item: abs(item[0] - half))
        last = taken[-1]
        before = tracemalloc.Snapshot.load(str(at_half[1]))
        after = tracemalloc.Snapshot.load(str(last[1]))
        total = sum(s.size for s in after.statistics("filename")) - sum(
            s.size for s in before.statistics("filename")
        )
        print(
            f"  traced by tracemalloc: {total / 2**20:+.2f} MB from "
            f"{at_half[0] / 60:.0f} to {last[0] / 60:.0f} min; the lines that "
            "grew most:"
        )
        grew = [s for s in after.compare_to(before, "lineno") if s.size_diff > 0]
        for stat in sorted(grew, key=lambda s: -s.size_diff)[:top]:
            frame = stat.traceback[0]
            print(
                f"    {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7} blocks  "
                f"{shorten(frame.filename)}:{frame.lineno}"
            )
    return flat


PROJECT = str(Path(__file__).resolve().parents[1]) + "/"


def shorten(filename: str) -> str:
    """A file named from the project or the installed packages."""
    if filename.startswith(PROJECT):
        return filename[len(PROJECT) :]
    return filename.split("site-packages/", 1)[-1]
