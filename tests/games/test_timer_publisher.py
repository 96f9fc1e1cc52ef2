"""Grace tasks leave the process from a thread of their own (notify.TaskPublisher)."""

from __future__ import annotations

import threading

from kombu.exceptions import OperationalError

from games.live.graces import TaskPublisher
from games.tasks import grace_expired


def test_timers_queued_meanwhile_go_out_together_and_one_failure_stops_none(
    monkeypatch,
):
    first_taken = threading.Event()
    release_first = threading.Event()
    published = []

    def apply_async(args, producer=None, **options):
        if args == (1, 0, "t1"):
            first_taken.set()
            release_first.wait(5)
        if args == (1, 0, "t3"):
            raise OperationalError("the broker went away")
        published.append((args, producer))

    monkeypatch.setattr(grace_expired, "apply_async", apply_async)
    publisher = TaskPublisher()
    publisher.put(grace_expired, (1, 0, "t1"), {})
    assert first_taken.wait(5)
    # While the first is being published, three more wait in the queue.
    for version in (2, 3, 4):
        publisher.put(grace_expired, (1, 0, f"t{version}"), {})
    release_first.set()
    assert publisher.flush()

    assert [args for args, _ in published] == [(1, 0, "t1"), (1, 0, "t2"), (1, 0, "t4")]
    later = {producer for args, producer in published if args != (1, 0, "t1")}
    assert len(later) == 1 and None not in later
