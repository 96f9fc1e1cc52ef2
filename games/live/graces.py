"""Disconnect graces as Celery tasks, the jobs of record that outlive a
server: the owner schedules one when a seat loses its last socket; the
task, when it runs, hands the seat back to the game's owner
(``games.tasks.grace_expired``)."""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading

from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


def schedule_grace(game_id: int, seat: int, token: str, seconds: float) -> None:
    from config.celery import app

    # Named rather than imported: the tasks module stands above this one.
    task = app.signature("games.tasks.grace_expired")
    _send_task(task, (game_id, seat, token), countdown=seconds)


def _send_task(task, args, **options) -> None:
    _publisher.put(task, args, options)


class TaskPublisher:
    """Publishes grace tasks from a thread of its own.

    Publishing a Celery task costs a few milliseconds of the broker client's
    work; the owner's event loop should not wait for it. A grace task that
    never reaches the broker is only lost time for the others at the table:
    the turn timer goes on, and the seat's moves are made for it.
    """

    def __init__(self):
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._pid: int | None = None
        self._lock = threading.Lock()

    def put(self, task, args, options) -> None:
        self._ensure_running()
        self._queue.put((task, args, options))

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything put so far is published (or ``timeout``)."""
        if not self._running():
            return True
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def _running(self) -> bool:
        # After a fork the thread belongs to the parent: start one here.
        return (
            self._thread is not None
            and self._pid == os.getpid()
            and self._thread.is_alive()
        )

    def _ensure_running(self) -> None:
        if self._running():
            return
        with self._lock:
            if self._running():
                return
            if self._pid != os.getpid():
                self._queue = queue.SimpleQueue()
            self._pid = os.getpid()
            self._thread = threading.Thread(
                target=self._run, name="pulka-task-publisher", daemon=True
            )
            self._thread.start()

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            # Whatever else is already waiting goes out on the same producer
            # (one broker connection checked out for the lot).
            while not self._queue.empty():
                batch.append(self._queue.get())
            self._publish(batch)

    def _publish(self, batch: list) -> None:
        from config.celery import app

        tasks = [item for item in batch if not isinstance(item, threading.Event)]
        try:
            if tasks:
                with app.producer_or_acquire() as producer:
                    for task, args, options in tasks:
                        self._publish_one(producer, task, args, options)
        except OperationalError:
            logger.warning("could not reach the broker; the sweep will catch up")
        except Exception:
            logger.exception("could not publish timers; the sweep will catch up")
        # Whoever waits in flush() learns that everything before is out.
        for item in batch:
            if isinstance(item, threading.Event):
                item.set()

    @staticmethod
    def _publish_one(producer, task, args, options) -> None:
        try:
            task.apply_async(args, producer=producer, **options)
        except OperationalError:
            logger.warning(
                "could not schedule %s%r; the sweep will catch it", task.name, args
            )
        except Exception:
            logger.exception("could not schedule %s%r", task.name, args)


_publisher = TaskPublisher()
# Publish what is still queued when the process ends normally.
atexit.register(_publisher.flush)
