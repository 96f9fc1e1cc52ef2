"""Child processes that do not outlive their parent."""

from __future__ import annotations

import ctypes
import signal
import sys

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def parent_death_signal():
    """A ``preexec_fn`` for ``subprocess.Popen`` by which Linux sends the
    child SIGTERM should its parent die (None elsewhere): servers started
    by ``make run``, a test or a benchmark never linger after a crash.

    libc is loaded here, in the parent, so that the hook itself makes only
    one system call between fork and exec.
    """
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl

    def hook() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)

    return hook
