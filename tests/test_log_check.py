"""The check of the logs of the processes a test starts (tests/processes.py):
it fails on an unhandled exception and on any traceback but those of the
errors a server is expected to log while PostgreSQL or Redis is down."""

import sys
import textwrap

import pytest

from tests.live.support import wait_until
from tests.processes import Process, UnhandledException, started

# A process that logs as the site's processes do (LOGGING in
# config/settings/base.py), the logger and message given.
LOGGING = """
import logging, sys
logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
def error(name, message):
    try:
        try:
            raise ConnectionRefusedError(111, "Connection refused")
        except OSError as exc:
            raise RuntimeError("connection is bad") from exc
    except RuntimeError:
        logging.getLogger(name).exception(message)
"""


def run(tmp_path, code: str) -> Process:
    process = Process(
        "logger",
        [sys.executable, "-c", LOGGING + textwrap.dedent(code)],
        {},
        tmp_path,
    )
    process.proc.wait(timeout=30)
    started.remove(process)  # checked here, not by the autouse fixture
    return process


def test_an_error_logged_with_its_traceback_fails_the_check(tmp_path):
    process = run(tmp_path, 'error("django.request", "Internal Server Error: /")')
    with pytest.raises(UnhandledException, match="Internal Server Error"):
        process.check_log()


def test_an_expected_error_passes_with_its_chained_traceback(tmp_path):
    process = run(
        tmp_path,
        """
        error("django_celery_beat.schedulers",
              "Database gave error: OperationalError('connection is bad')")
        logging.getLogger("config.task_retries").warning("trying again")
        """,
    )
    process.check_log()


def test_a_traceback_after_an_expected_one_fails_the_check(tmp_path):
    process = run(
        tmp_path,
        """
        error("games.live.hall", "heartbeat failed")
        import traceback
        try:
            1 / 0
        except ZeroDivisionError:
            traceback.print_exc()
        """,
    )
    with pytest.raises(UnhandledException, match="ZeroDivisionError"):
        process.check_log()


def test_the_runners_processes_are_read_apart(tmp_path):
    """Lines of the platform's processes interleave (scripts/run_platform.py
    prefixes each with its process): an expected record of one does not
    cover a traceback of another."""
    beat = "beat   | 2026-12-05 12:00:00,000 ERROR celery.beat: Message Error: "
    beat += "Couldn't apply scheduled task sweep-lost-timers: Error 111"
    lines = [
        beat,
        "worker | 2026-12-05 12:00:00,001 ERROR games.tasks: went wrong",
        "beat   | Traceback (most recent call last):",
        "worker | Traceback (most recent call last):",
        'beat   |   File "x.py", line 1, in <module>',
        'worker |   File "y.py", line 1, in <module>',
        "beat   | redis.exceptions.ConnectionError: Error 111",
        "worker | ValueError: went wrong",
    ]
    process = run(tmp_path, f"print({chr(10).join(lines)!r})")
    with pytest.raises(UnhandledException) as raised:
        process.check_log()
    # One exception found, shown from the worker's record.
    message = str(raised.value)
    assert "unhandled exception:\nworker | 2026-12-05" in message
    assert "\n...\n" not in message


def test_an_unhandled_exception_fails_the_check(tmp_path):
    process = run(
        tmp_path,
        """
        import threading
        thread = threading.Thread(target=lambda: 1 / 0)
        thread.start()
        thread.join()
        """,
    )
    with pytest.raises(UnhandledException, match="Exception in thread"):
        process.check_log()


# A process that writes a record's first line, and its traceback only once
# the test has looked at the log (the file ``go`` appears).
IN_TWO_PARTS = """
import os, sys, time
print(sys.argv[1], flush=True)
while not os.path.exists(sys.argv[2]):
    time.sleep(0.05)
print("Traceback (most recent call last):")
print('  File "x.py", line 1, in <module>')
print("OSError: [Errno 111] Connection refused", flush=True)
"""


@pytest.mark.parametrize(
    ("record", "unhandled"),
    [
        ("ERROR games.live.hall: heartbeat failed", False),
        ("ERROR django.request: Internal Server Error: /", True),
    ],
)
def test_a_traceback_read_after_its_record_is_judged_by_it(tmp_path, record, unhandled):
    go = tmp_path / "go"
    process = Process(
        "logger",
        [sys.executable, "-c", IN_TWO_PARTS, f"2026-12-05 12:00:00,000 {record}", go],
        {},
        tmp_path,
    )
    started.remove(process)  # checked here, not by the autouse fixture
    wait_until(lambda: process.log_path.read_text().strip(), 10, "the record")
    process.check_log()
    go.touch()
    process.proc.wait(timeout=30)
    if unhandled:
        with pytest.raises(UnhandledException, match="Internal Server Error"):
            process.check_log()
    else:
        process.check_log()
