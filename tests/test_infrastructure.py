"""The real moving parts: a Celery worker, the channel layer, the database.

They run against PostgreSQL and Redis: the ones DATABASE_URL and REDIS_URL
name, or else this checkout's embedded servers, which are the same software.
"""

import asyncio
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from config.tasks import ping

BASE_DIR = Path(settings.BASE_DIR)
WORKER_STOP_TIMEOUT = 20


@pytest.fixture
def celery_worker(tmp_path):
    """Run a real Celery worker process for the duration of one test."""
    # Timer tasks left by earlier tests (their games are gone) would be
    # worked through before the ping.
    celery_app.control.purge()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    log_path = tmp_path / "worker.log"
    cmd = [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--pool", "solo", "--loglevel", "INFO",
        "--queues", settings.CELERY_TASK_DEFAULT_QUEUE,
        "--hostname", f"pulka-test-{uuid.uuid4().hex[:8]}@%h",
        "--without-mingle", "--without-gossip",
    ]  # fmt: skip
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            cmd,
            cwd=BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=WORKER_STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        # Shown by pytest only when the test fails.
        print(log_path.read_text())


def test_tasks_are_never_run_eagerly():
    assert celery_app.conf.task_always_eager is False


def test_broker_and_results_are_redis():
    # redis+socket:// is the embedded server's Unix socket.
    assert celery_app.conf.broker_url.startswith(("redis://", "redis+socket://"))
    assert celery_app.conf.result_backend.startswith(("redis://", "redis+socket://"))


@pytest.mark.servers
@pytest.mark.timeout(120)
def test_ping_runs_on_a_real_worker(celery_worker):
    result = ping.apply_async(countdown=1)

    assert result.get(timeout=60) == "pong"
    assert result.successful()
    assert celery_worker.poll() is None, "the worker died"


def test_channel_layer_is_redis_pubsub():
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    assert backend == "channels_redis.pubsub.RedisPubSubChannelLayer"


def test_channel_layer_round_trips_a_message():
    layer = get_channel_layer()

    async def round_trip():
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "table.event", "version": 7})
        return await asyncio.wait_for(layer.receive(channel), timeout=5)

    assert async_to_sync(round_trip)() == {"type": "table.event", "version": 7}


def test_channel_layer_delivers_to_a_group():
    layer = get_channel_layer()
    group = f"table-{uuid.uuid4().hex}"

    async def broadcast():
        first = await layer.new_channel()
        second = await layer.new_channel()
        await layer.group_add(group, first)
        await layer.group_add(group, second)
        await layer.group_send(group, {"type": "table.event", "version": 1})
        received = [
            await asyncio.wait_for(layer.receive(channel), timeout=5)
            for channel in (first, second)
        ]
        await layer.group_discard(group, first)
        await layer.group_discard(group, second)
        return received

    assert async_to_sync(broadcast)() == [{"type": "table.event", "version": 1}] * 2


@pytest.mark.django_db
def test_database_is_postgresql_through_psycopg3():
    import psycopg

    connection.ensure_connection()

    assert connection.vendor == "postgresql"
    assert isinstance(connection.connection, psycopg.Connection)
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('server_version_num')::int")
        (version,) = cursor.fetchone()
    assert version >= 120000


@pytest.mark.slow
def test_an_idle_receive_on_redis_outlasts_the_blocking_wait():
    # A consumer waits on the layer for long stretches; a reader that gave up
    # after redis-py's default socket timeout (5 s) would crash idle
    # consumers. A message sent after 6 s must still arrive.
    layer = get_channel_layer()

    async def late_message():
        channel = await layer.new_channel()

        async def send_later():
            await asyncio.sleep(6)
            await layer.send(channel, {"type": "table.event", "version": 3})

        sender = asyncio.create_task(send_later())
        message = await asyncio.wait_for(layer.receive(channel), timeout=15)
        await sender
        return message

    assert async_to_sync(late_message)() == {"type": "table.event", "version": 3}
