"""The fault suite's platform is ready only when its own web process
answers: between a stop and the start again its port is free, and another
test run's server that takes it meanwhile must not pass for it (its players
would meet that server, and be cut off when it stops)."""

from __future__ import annotations

import sys

import pytest

from tests.processes import Process, wait_for_http

from .conftest import Platform

pytestmark = [pytest.mark.faults, pytest.mark.slow, pytest.mark.timeout(300)]

# A server that answers every request with 200, as another run's site would
# answer /health/.
ANSWERS_200 = """
import http.server, sys
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"ok")
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
"""


def test_a_port_taken_by_another_server_is_not_taken_for_the_platform(
    tmp_path_factory,
):
    log_dir = tmp_path_factory.mktemp("fault-ready")
    platform = Platform(log_dir)
    other = Process(
        "other-server",
        [sys.executable, "-c", ANSWERS_200, str(platform.port)],
        {},
        log_dir,
    )
    try:
        wait_for_http(other, f"{platform.url}/health/")
        # Refused for what it is: the platform's web never listened (the
        # runner gave up on it, or the wait ran out), not a slow start.
        with pytest.raises(
            (AssertionError, RuntimeError),
            match="not from this platform's web|platform-1 exited with",
        ):
            platform.start(timeout=90)
        log = platform.process.log_path.read_text(errors="replace")
        assert "address already in use" in log
    finally:
        platform.close()
        other.stop()
