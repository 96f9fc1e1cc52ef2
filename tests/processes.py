"""Server processes for tests that run the real thing: uvicorn, Celery.

Each runs in a process group of its own with its output in a log file, and
is stopped with its whole group; Linux ends it should the test run die.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
STOP_TIMEOUT = 20


def _die_with_parent():
    """A preexec hook: on Linux the child gets SIGTERM should pytest die."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl

    def hook() -> None:
        prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG

    return hook


class Process:
    """A subprocess in a process group of its own, its output in a log file."""

    def __init__(
        self, name: str, cmd: list[str], env: dict, log_dir: Path, cwd=BASE_DIR
    ):
        self.name = name
        self.log_path = log_dir / f"{name}.log"
        with self.log_path.open("w") as log:
            self.proc = subprocess.Popen(
                cmd,
                cwd=cwd,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent(),
            )

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, lines: int = 60) -> str:
        text = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def check_alive(self) -> None:
        if not self.alive():
            raise RuntimeError(
                f"{self.name} exited with {self.proc.returncode}:\n{self.log_tail()}"
            )

    def stop(self) -> None:
        """Stop the whole process group: SIGTERM, then SIGKILL."""
        if self.alive():
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            except ProcessLookupError:
                pass
        try:
            # Children left behind in the group (none expected).
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
