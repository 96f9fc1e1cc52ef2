"""What happens after a commit: live updates and the next timer.

Called through ``transaction.on_commit`` only, so a rolled-back change is
never announced and no timer is set for it.
"""

from __future__ import annotations

import atexit
import contextvars
import logging
import os
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def seat_group(game_id: int, seat: int) -> str:
    return f"game-{game_id}-seat-{seat}"


def spectator_group(game_id: int) -> str:
    return f"game-{game_id}-watch"


def game_changed(game, state, events: list, seats: list) -> None:
    """Send every seat and the spectators their own view of the new state.

    ``game`` is the just-committed row, ``state`` its decoded state and
    ``seats`` its seats in order.
    """
    from games.selectors import shared_snapshot, snapshot

    shared = shared_snapshot(game, seats)
    sends = []
    for seat in [*range(len(seats)), None]:
        message = {
            "type": "update",
            "events": events,
            **snapshot(game, seats, seat, state=state, shared=shared),
        }
        sends.append((audience_group(game.pk, seat), message))
    if game.status != "playing":
        sends.append((LOBBY_GROUP, None))
    _send_all(sends)


def presence_changed(game_id: int) -> None:
    from games.selectors import game_for_broadcast, seats_json

    game, seats = game_for_broadcast(game_id)
    message = {"type": "presence", "version": game.version, "seats": seats_json(seats)}
    audiences = [*range(len(seats)), None]
    _send_all([(audience_group(game_id, seat), message) for seat in audiences])


def lobby_changed() -> None:
    _send_all([(LOBBY_GROUP, None)])


def audience_group(game_id: int, seat: int | None) -> str:
    return spectator_group(game_id) if seat is None else seat_group(game_id, seat)


# While set (see ``sends_kept``), the list that keeps this context's sends.
_kept_sends: contextvars.ContextVar[list | None] = contextvars.ContextVar(
    "kept_sends", default=None
)


@contextmanager
def sends_kept() -> Iterator[list]:
    """Keep the sends made inside this block in the list it yields, unsent.

    A player's action runs in a worker thread; its broadcast would otherwise
    make a trip from that thread to the event loop and back before the
    action's answer could go out. The consumer instead takes the sends back
    to its event loop, passes the player's own update straight to the
    player's socket, and then publishes them all (``publish``).
    """
    kept: list = []
    token = _kept_sends.set(kept)
    try:
        yield kept
    finally:
        _kept_sends.reset(token)


def _send_all(sends: list) -> None:
    """Send to several groups in one trip to the event loop (a message of
    None tells the lobby to refresh)."""
    kept = _kept_sends.get()
    if kept is not None:
        kept.extend(sends)
        return
    async_to_sync(publish)(sends)


async def publish(sends: list) -> None:
    """Send each (group, message) through the channel layer, in order."""
    # One after another: channels_redis stalls on concurrent sends from one
    # event loop, and each group must get a game's updates in order.
    layer = get_channel_layer()
    for group, message in sends:
        await layer.group_send(group, _envelope(message))


def _envelope(message: dict | None) -> dict:
    if message is None:
        return {"type": "lobby.changed"}
    return {"type": "table.message", "message": message}


def schedule_move(game_id: int, version: int, deadline) -> None:
    """The timer of the move due at ``version``: a task at its deadline."""
    from games.tasks import advance_overdue

    _send_task(advance_overdue, (game_id, version), eta=deadline)


def schedule_grace(game_id: int, seat: int, token: str, seconds: float) -> None:
    from games.tasks import grace_expired

    _send_task(grace_expired, (game_id, seat, token), countdown=seconds)


def _send_task(task, args, **options) -> None:
    _publisher.put(task, args, options)


class TaskPublisher:
    """Publishes timer tasks from a thread of its own.

    Publishing a Celery task costs a few milliseconds of the broker client's
    work; a move's answer should not wait for it. The deadline itself is
    committed with the move, so a timer that never reaches the broker (the
    broker down, the process ending first) is only late: the periodic sweep
    (games.tasks.sweep) moves the overdue game instead.
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
