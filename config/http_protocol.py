"""uvicorn's HTTP protocol, with the API's JSON for a request it refuses.

uvicorn answers a request it cannot parse (bad bytes in the request line, a
target of 64 KiB or more: httptools keeps URL offsets in 16 bits) with a 400
of its own in text/plain, before any application sees it. Under /api/ every
answer is JSON ``{"code", "detail"}`` (common.api_errors), so this subclass
words that 400 the same way there. Named on the server command line
(``--http``, config.limits); it must not import Django: uvicorn loads it
first.
"""

from __future__ import annotations

import json

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

API_PREFIX = b"/api/"
UNREADABLE = {
    "code": "bad_request",
    "detail": "the request could not be read: malformed, or its address is "
    "64 KiB or longer",
}


def request_path(target: bytes) -> bytes:
    """The path of a request target, in origin form or absolute form."""
    if target.startswith((b"http://", b"https://")):
        rest = target.split(b"//", 1)[1]
        slash = rest.find(b"/")
        return rest[slash:] if slash >= 0 else b"/"
    return target


class JsonRefusalsProtocol(HttpToolsProtocol):
    last_received = b""

    def data_received(self, data: bytes) -> None:
        # Kept for the request line: the parser may fail before it has
        # handed the target over (a raw byte in it, say).
        self.last_received = data
        super().data_received(data)

    def target(self) -> bytes:
        """The request target, as far as it was read."""
        if getattr(self, "url", b""):
            return self.url
        words = self.last_received.split(b"\r\n", 1)[0].split(b" ")
        return words[1] if len(words) > 1 else b""

    def send_400_response(self, msg: str) -> None:
        if not request_path(self.target()).startswith(API_PREFIX):
            super().send_400_response(msg)
            return
        body = json.dumps(UNREADABLE).encode()
        content = [STATUS_LINE[400]]
        for name, value in self.server_state.default_headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend(
            [
                b"content-type: application/json\r\n",
                b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
                b"connection: close\r\n",
                b"\r\n",
                body,
            ]
        )
        self.transport.write(b"".join(content))
        self.transport.close()
